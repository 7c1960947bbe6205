package cmd

import "testing"

// Sizes are read as go-humanize read them before it went: SI units by
// default, binary ones with an i, any case, a space or none, a fraction.
func TestParseSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"1048576": 1 << 20, "64MiB": 64 << 20, "64M": 64e6, "64 mb": 64e6, "1.5GiB": 3 << 29, "512 KiB": 512 << 10,
		"512k": 512e3, "2ki": 2048, "10B": 10, " 7 ": 7, "1TiB": 1 << 40, "1e": 1e18, "0": 0,
	} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "-1", "64XB", "1e3", "64 MiBs", "1.2.3", "9EiB", "64bb"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestBinarySize(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{100: "100 B", 65536: "64 KiB", 3 << 19: "1.5 MiB", 1 << 30: "1.0 GiB", 200e6: "191 MiB"} {
		if got := binarySize(n); got != want {
			t.Errorf("binarySize(%d) = %q, want %q", n, got, want)
		}
	}
}
