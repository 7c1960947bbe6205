package claude

import "github.com/agentfmt/agentfmt/parsers/internal/reminder"

// display is a tool result as a person reads it: without the
// <system-reminder> blocks Claude Code appends for the model ("" when
// there are none).
func display(out string) string { return reminder.Strip(out) }
