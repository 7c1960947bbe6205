package parsers

import (
	"fmt"
	"sort"
	"strings"
)

// TypeCounts says how many lines of which types there were, most first:
// "thought ×8, text ×4". max > 0 names at most that many types ("…" for
// the rest).
func TypeCounts(byType map[string]int, max int) string {
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	sort.Slice(types, func(i, j int) bool {
		if a, b := byType[types[i]], byType[types[j]]; a != b {
			return a > b
		}
		return types[i] < types[j]
	})
	var parts []string
	for i, t := range types {
		if max > 0 && i == max {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", t, byType[t]))
	}
	return strings.Join(parts, ", ")
}
