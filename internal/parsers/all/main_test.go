package all

import (
	"testing"

	"github.com/agentfmt/agentfmt/internal/testmain"
)

func TestMain(m *testing.M) { testmain.Run(m) }
