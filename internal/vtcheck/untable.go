package vtcheck

import "strings"

// Untable reads the tables of the pretty renderer's screen row by row of
// their source: a cell whose text wraps fills several screen rows of its
// column, so a table row is gathered column by column over the screen
// rows it spans (a new row begins where the first column has text again,
// and at a rule) and given as one row, its cells separated by ╎. Rows
// outside tables are kept as they are; subagents' labels are left out
// (Unlabel).
func Untable(rows []string) []string {
	out := make([]string, 0, len(rows))
	var cells [][]string // the columns of the table row being gathered
	flush := func() {
		if cells == nil {
			return
		}
		parts := make([]string, len(cells))
		for k, c := range cells {
			parts[k] = strings.Join(c, " ")
		}
		out = append(out, strings.Join(parts, " ╎ "))
		cells = nil
	}
	for _, r := range rows {
		r = Unlabel(r)
		switch {
		case strings.Contains(r, "╎"):
			cols := strings.Split(r, "╎")
			if cells == nil || len(cols) != len(cells) || strings.TrimSpace(cols[0]) != "" {
				flush()
				cells = make([][]string, len(cols))
			}
			for k, c := range cols {
				if c = strings.TrimSpace(c); c != "" {
					cells[k] = append(cells[k], c)
				}
			}
		case cells != nil && strings.Trim(r, "─┼ ") == "" && strings.TrimSpace(r) != "":
			flush() // a rule between the header and the body
			out = append(out, r)
		default:
			flush()
			out = append(out, r)
		}
	}
	flush()
	return out
}
