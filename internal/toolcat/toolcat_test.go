package toolcat

import (
	"testing"

	_ "github.com/agentfmt/agentfmt/internal/golden" // every test binary takes go test ./... -update
)

// TestOf: the agents' spellings of one tool land in one category; a
// server's tool and an unknown name are other.
func TestOf(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"Bash": Command, "shell": Command, "run_shell_command": Command, "developer__shell": Command,
		"execute": Command, "Read": Read, "read_file": Read, "readFile": Read, "list_dir": Read,
		"Edit": Edit, "apply_patch": Edit, "MultiEdit": Edit, "editedExistingFile": Edit, "delete": Edit,
		"Grep": Search, "Glob": Search, "web_search": Search, "WebFetch": Fetch, "webfetch": Fetch,
		"Task": Task, "spawn_agent": Task, "spawnAgent": Task, "TodoWrite": Plan, "update_plan": Plan,
		"AskUserQuestion": Ask, "ask_followup_question": Ask,
		"github.create_issue": Other, "docs.search": Other, "Bash<script>": Other, "": Other, "xlsx": Other,
	} {
		if got := Of(name); got != want {
			t.Errorf("Of(%q) = %q, want %q", name, got, want)
		}
	}
}
