package resulttext

import (
	"encoding/json"
	"strconv"

	"github.com/dustin/go-humanize"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// SkillSummary is what a table shows of one skills/list entry: name,
// description, how many files it lists ("dynamic" when it lists none) and
// their total size.
func SkillSummary(raw json.RawMessage) (name, description, files, size string) {
	var s mcp.Skill
	if json.Unmarshal(raw, &s) != nil {
		return "", compactLine(raw), "", ""
	}
	fm := s.Named()
	name, description = fm.Name, firstLine(fm.Description)
	if name == "" {
		name = s.URI
	}
	if s.Resources.Dynamic {
		return name, description, mcp.SkillResourcesDynamic, ""
	}
	var total int64
	for _, f := range s.Resources.Files {
		if f.Size != nil && *f.Size > 0 {
			total += *f.Size
		}
	}
	return name, description, strconv.Itoa(len(s.Resources.Files)), humanize.IBytes(uint64(total))
}

// skillRows are the columns and rows of a table of skills.
func skillRows(items []json.RawMessage) ([]string, [][]string) {
	rows := make([][]string, 0, len(items))
	for _, it := range items {
		name, desc, files, size := SkillSummary(it)
		rows = append(rows, []string{name, files, size, desc})
	}
	return []string{"NAME", "FILES", "SIZE", "DESCRIPTION"}, rows
}

// Table renders rows under headers fitted to width cells (0: no limit),
// each cell made safe to print on one line; its last column is cut first.
func Table(headers []string, rows [][]string, width int) string {
	safe := make([][]string, len(rows))
	for i, r := range rows {
		safe[i] = make([]string, len(r))
		for j, c := range r {
			safe[i][j] = termtext.OneLine(c)
		}
	}
	headers, safe = dropEmptyColumns(headers, safe)
	return endLine(fit(headers, safe, width))
}
