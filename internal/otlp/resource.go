package otlp

import (
	"strings"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
)

// serviceAttrs name agentfmt as the service (OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES win).
func serviceAttrs(version string) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.ServiceName("agentfmt")}
	if version != "" {
		attrs = append(attrs, semconv.ServiceVersion(version))
	}
	return attrs
}

// ciAttrs describe the CI job agentfmt runs in, after the CI/CD and VCS
// conventions: GitHub Actions' and GitLab's own variables.
func ciAttrs(getenv func(string) string) []attribute.KeyValue {
	var attrs []attribute.KeyValue
	add := func(key attribute.Key, v string) {
		if v = strings.TrimSpace(v); v != "" {
			attrs = append(attrs, key.String(clean(v)))
		}
	}
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		server, repo, run := strings.TrimRight(getenv("GITHUB_SERVER_URL"), "/"), getenv("GITHUB_REPOSITORY"), getenv("GITHUB_RUN_ID")
		add(semconv.CICDPipelineNameKey, getenv("GITHUB_WORKFLOW"))
		add(semconv.CICDPipelineRunIDKey, run)
		if server != "" && repo != "" && run != "" {
			add(semconv.CICDPipelineRunURLFullKey, server+"/"+repo+"/actions/runs/"+run)
		}
		add(semconv.CICDPipelineTaskNameKey, getenv("GITHUB_JOB"))
		add(semconv.CICDWorkerNameKey, getenv("RUNNER_NAME"))
		add(semconv.VCSProviderNameKey, "github")
		add(semconv.VCSOwnerNameKey, getenv("GITHUB_REPOSITORY_OWNER"))
		if _, name, ok := strings.Cut(repo, "/"); ok {
			add(semconv.VCSRepositoryNameKey, name)
		}
		if server != "" && repo != "" {
			add(semconv.VCSRepositoryURLFullKey, server+"/"+repo)
		}
		ref := getenv("GITHUB_HEAD_REF") // a pull request's branch
		if ref == "" {
			ref = getenv("GITHUB_REF_NAME")
		}
		add(semconv.VCSRefHeadNameKey, ref)
		add(semconv.VCSRefHeadRevisionKey, getenv("GITHUB_SHA"))
		add(semconv.VCSRefBaseNameKey, getenv("GITHUB_BASE_REF"))
	case getenv("GITLAB_CI") == "true":
		name := getenv("CI_PIPELINE_NAME")
		if name == "" {
			name = getenv("CI_PROJECT_PATH")
		}
		add(semconv.CICDPipelineNameKey, name)
		add(semconv.CICDPipelineRunIDKey, getenv("CI_PIPELINE_ID"))
		add(semconv.CICDPipelineRunURLFullKey, getenv("CI_PIPELINE_URL"))
		add(semconv.CICDPipelineTaskNameKey, getenv("CI_JOB_NAME"))
		add(semconv.CICDPipelineTaskRunIDKey, getenv("CI_JOB_ID"))
		add(semconv.CICDPipelineTaskRunURLFullKey, getenv("CI_JOB_URL"))
		add(semconv.CICDWorkerNameKey, getenv("CI_RUNNER_DESCRIPTION"))
		add(semconv.VCSProviderNameKey, "gitlab")
		add(semconv.VCSOwnerNameKey, getenv("CI_PROJECT_NAMESPACE"))
		add(semconv.VCSRepositoryNameKey, getenv("CI_PROJECT_NAME"))
		add(semconv.VCSRepositoryURLFullKey, getenv("CI_PROJECT_URL"))
		ref := getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME")
		if ref == "" {
			ref = getenv("CI_COMMIT_REF_NAME")
		}
		add(semconv.VCSRefHeadNameKey, ref)
		add(semconv.VCSRefHeadRevisionKey, getenv("CI_COMMIT_SHA"))
		add(semconv.VCSRefBaseNameKey, getenv("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"))
	}
	return attrs
}
