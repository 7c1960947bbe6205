package conformance

// Qwen Code writes Claude Code's stream-json shapes (system/init with
// qwen_code_version, or system/session_start). Its API errors arrive as
// an assistant text "[API Error: 401 …]" followed by a result that says
// success (QwenLM/qwen-code#8920): claudeLike counts that run as failed.
func init() {
	Register("qwen", func(data []byte, _ string) Expect { return claudeLike(data) })
}
