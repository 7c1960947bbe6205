// Package toolcat sorts tool calls into the categories of
// streaming.Event.Category (read, edit, command, search, fetch, task,
// plan, ask, other) by their tool's name: one table for every agent, so
// that no consumer matches tool names agent by agent.
package toolcat

import "strings"

// The categories (docs/events.md).
const (
	Read    = "read"    // reads a file or lists a directory
	Edit    = "edit"    // writes, edits, moves or deletes files
	Command = "command" // runs a shell command
	Search  = "search"  // searches files or the web
	Fetch   = "fetch"   // fetches a web page
	Task    = "task"    // starts a subagent
	Plan    = "plan"    // writes the plan or todo list
	Ask     = "ask"     // asks the user a question
	Other   = "other"   // anything else (MCP tools, skills, …)
)

// byKey is the table: a tool's name, as key makes it, to its category.
// The names are the agents' own (Claude Code, Codex, Gemini CLI,
// OpenCode, Cursor, Copilot, Cline, ACP kinds, …).
var byKey = map[string]string{}

func init() {
	for cat, names := range map[string][]string{
		Read: {"read", "readfile", "readfiles", "readmanyfiles", "view", "viewfile", "cat", "ls", "list",
			"listdir", "listdirectory", "listfiles", "listfilestoplevel", "listfilesrecursive", "notebookread",
			"readdir", "openfile", "readdirectory"},
		Edit: {"edit", "editfile", "multiedit", "write", "writefile", "writetofile", "create", "createfile",
			"newfile", "newfilecreated", "applypatch", "patch", "replace", "strreplace", "strreplaceeditor",
			"strreplacebasededittool", "searchreplace", "replaceinfile", "editedexistingfile", "applieddiff",
			"insert", "insertcontent", "delete", "deletefile", "move", "movefile", "rename", "notebookedit",
			"filechange"},
		Command: {"bash", "shell", "sh", "zsh", "powershell", "execute", "executecommand", "exec", "execcommand",
			"runshellcommand", "runcommand", "runcommands", "runterminalcommand", "runterminalcmd", "terminal",
			"localshell", "commandexecution", "command", "bashoutput", "killshell", "killbash"},
		Search: {"grep", "glob", "rg", "ripgrep", "find", "findfiles", "search", "searchfiles", "searchfilecontent",
			"grepsearch", "filesearch", "codebasesearch", "semsearch", "semanticsearch", "websearch", "googlewebsearch",
			"globfiles", "listcodedefinitionnames"},
		Fetch: {"webfetch", "fetch", "fetchurl", "urlfetch", "readurl", "browse", "openurl"},
		Task:  {"task", "agent", "spawnagent", "subagent", "dispatchagent", "newtask", "delegate"},
		Plan: {"todowrite", "todoread", "todo", "todos", "updatetodos", "writetodos", "updateplan", "plan",
			"exitplanmode", "todolist", "managetodolist"},
		Ask: {"askuserquestion", "askfollowupquestion", "askuser", "ask", "question", "requestuserinput"},
	} {
		for _, n := range names {
			byKey[n] = cat
		}
	}
}

// Of is the category of a tool called name: Other for a name the table
// does not know, and for a tool of an MCP server ("github.create_issue").
func Of(name string) string {
	if c, ok := byKey[key(name)]; ok {
		return c
	}
	return Other
}

// key is name as the table knows it: lower case, without the server part
// of a namespaced tool ("developer__shell" is "shell") and without the
// separators agents spell names with ("read_file", "run-command",
// "ReadFile" are "readfile"). A dotted name (an MCP server's tool, as the
// parsers clean it) keeps its dot, so no entry matches it.
func key(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c == '_' || c == '-' || c == ' ':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
