package agentproc

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// A group whose process runs is not gone; once the process has ended, it
// is gone even while the process is a zombie nobody reaped yet.
func TestGroupGoneWithZombies(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sleep", "60")
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	defer syscall.Kill(pid, syscall.SIGKILL)
	if groupGone(pid) {
		t.Fatal("a group whose process sleeps is gone")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The process is this test's child, not waited for: a zombie until
	// cmd.Wait.
	deadline := time.Now().Add(10 * time.Second)
	for !groupGone(pid) {
		if time.Now().After(deadline) {
			t.Fatal("a group of one zombie is not gone")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := syscall.Kill(-pid, 0); err != nil {
		t.Fatalf("the zombie was reaped before the check: %v", err)
	}
}
