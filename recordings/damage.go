package recordings

import "github.com/mcpscope/mcpscope/internal/app/plural"

// Warnings says what a read skipped and where it ended, a sentence each:
// every named corrupt line, a count of the others, and the torn last line
// followed by torn (what became of the rest, or "").
func (d Damage) Warnings(torn string) []string {
	var out []string
	for _, c := range d.Corrupt {
		out = append(out, c.Error()+"; it is skipped")
	}
	if more := d.Skipped - len(d.Corrupt); more > 0 {
		out = append(out, CorruptLines(more)+" more skipped")
	}
	if d.Torn != nil {
		out = append(out, d.Torn.Error()+torn)
	}
	return out
}

// CorruptLines counts corrupt lines in words: "1 corrupt line", "3 corrupt
// lines".
func CorruptLines(n int) string { return plural.Count(n, "corrupt line", "corrupt lines") }
