package conformance

// Qwen Code's `-o json` prints one JSON array of its stream-json messages
// (docs/formats/qwen.md): the array's elements are read as a Claude-shaped
// capture (claudeValues), whatever the file's layout (one line, or one
// element per line).
func init() {
	Register("qwen-json", func(data []byte, _ string) Expect { return claudeValues(documents(data)) })
}
