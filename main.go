// Command agentfmt renders the JSON stream of AI coding agents.
package main

import (
	"os"

	"github.com/agentfmt/agentfmt/cmd"
)

func main() { os.Exit(cmd.Main()) }
