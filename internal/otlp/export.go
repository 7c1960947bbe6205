package otlp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Config says where spans go and how long they may take.
type Config struct {
	// Endpoint is the full URL spans are posted to (Endpoint makes it).
	Endpoint string
	// Getenv reads the environment: the CI job's attributes (nil:
	// none). OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME and
	// OTEL_RESOURCE_ATTRIBUTES are read by the SDK from the process's.
	Getenv func(string) string
	// Version is agentfmt's, the service.version of the spans.
	Version string
	// Flush bounds the flush at the end (Shutdown); DefaultFlush when 0.
	Flush time.Duration
	// Queue is how many ended spans wait to be sent at most; more are
	// dropped and counted (DefaultQueue when 0).
	Queue int
	// Exporter replaces OTLP/HTTP (tests: the SDK's in-memory exporter).
	Exporter sdktrace.SpanExporter
}

// The bounds of an Exporter unless its Config says otherwise.
const (
	DefaultFlush = 3 * time.Second
	DefaultQueue = 8192
)

// Exporter is the SDK set up for agentfmt: spans leave in batches from a
// bounded queue, in the SDK's own goroutine, and what could not be sent
// is counted and said once, at Shutdown.
type Exporter struct {
	tp       *sdktrace.TracerProvider
	endpoint string
	flush    time.Duration
	batch    *batcher
}

// DefaultEndpoint is the OTLP/HTTP endpoint of a collector on this
// machine, the conventions' default.
const DefaultEndpoint = "http://localhost:4318"

// Endpoint is the URL spans are posted to for the value of --otlp: a base
// URL gets /v1/traces (as OTEL_EXPORTER_OTLP_ENDPOINT does); "" or "auto"
// takes OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else
// OTEL_EXPORTER_OTLP_ENDPOINT, else DefaultEndpoint. An error says what
// is wrong with a URL given.
func Endpoint(flag string, getenv func(string) string) (string, error) {
	base, what := flag, "--otlp"
	if flag == "" || flag == "auto" {
		if v := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")); v != "" {
			return checkURL(v, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
		}
		base, what = strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")), "OTEL_EXPORTER_OTLP_ENDPOINT"
		if base == "" {
			base = DefaultEndpoint
		}
	}
	u, err := checkURL(base, what)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(u, "/") + "/v1/traces", nil
}

func checkURL(s, what string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s: %q is not an http:// or https:// URL", what, s)
	}
	return s, nil
}

// Start sets the SDK up to export to cfg.Endpoint. Nothing is sent until
// spans end; an unreachable collector is found then, not here.
func Start(cfg Config) (*Exporter, error) {
	if cfg.Flush <= 0 {
		cfg.Flush = DefaultFlush
	}
	if cfg.Queue <= 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	quiet()
	inner := cfg.Exporter
	if inner == nil {
		var err error
		inner, err = otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(cfg.Endpoint),
			otlptracehttp.WithTimeout(cfg.Flush),
			otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 200 * time.Millisecond,
				MaxInterval: time.Second, MaxElapsedTime: cfg.Flush}))
		if err != nil {
			return nil, err
		}
	}
	res, err := resource.New(context.Background(),
		resource.WithAttributes(serviceAttrs(cfg.Version)...),
		resource.WithAttributes(ciAttrs(cfg.Getenv)...),
		resource.WithFromEnv())
	if err != nil && res == nil {
		return nil, err
	}
	b := newBatcher(inner, cfg.Queue, cfg.Queue/4, batchEvery, cfg.Flush)
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSpanProcessor(b))
	return &Exporter{tp: tp, endpoint: cfg.Endpoint, flush: cfg.Flush, batch: b}, nil
}

// Tracer is what a Trace starts its spans with.
func (e *Exporter) Tracer() trace.Tracer {
	return e.tp.Tracer("github.com/agentfmt/agentfmt")
}

// Shutdown sends what is left, within the flush bound, and returns a
// warning to say once when spans were lost (to a collector that did not
// answer, or to the full queue), "" when all of them left.
func (e *Exporter) Shutdown() string {
	ctx, cancel := context.WithTimeout(context.Background(), e.flush)
	defer cancel()
	serr := e.tp.Shutdown(ctx)
	ended, sent, why := e.batch.counts()
	if sent >= ended {
		return ""
	}
	switch {
	case why != nil:
	case serr != nil:
		why = fmt.Errorf("no answer within %v", e.flush)
	default:
		why = errors.New("the queue was full")
	}
	return fmt.Sprintf("%d of %d spans not exported to %s: %v", ended-sent, ended, e.endpoint, why)
}

var quietOnce sync.Once

// quiet keeps the SDK from logging on stderr: what went wrong is said
// once, by Shutdown.
func quiet() {
	quietOnce.Do(func() {
		otel.SetErrorHandler(otel.ErrorHandlerFunc(func(error) {}))
		otel.SetLogger(logr.Discard())
	})
}
