package render

import "github.com/agentfmt/agentfmt/internal/jsonvalid"

// validJSON judges untrusted JSON without recursion (see internal/jsonvalid).
func validJSON(s string) bool { return jsonvalid.String(s) }
