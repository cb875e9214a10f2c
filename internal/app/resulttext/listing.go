package resulttext

import (
	"encoding/json"
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// columnGap is the space between two columns of a table.
const columnGap = 2

// minLastColumn is the narrowest a table's last column (the descriptions)
// is cut to; with less room left it is left out.
const minLastColumn = 12

// Listing renders the lists of a listing (the fields of
// {"tools":[…]}, {"resources":[…],"resourceTemplates":[…]}, …) as one
// table each, a blank line apart, fitted to width cells (0: no limit).
// A field it does not know is shown as indented JSON.
func Listing(fields []string, lists [][]json.RawMessage, width int) string {
	parts := make([]string, 0, len(fields))
	for i, f := range fields {
		parts = append(parts, endLine(listTable(f, lists[i], width)))
	}
	return strings.Join(parts, "\n")
}

// listPage renders one page of a list method's result, and its
// nextCursor when there is one; "" when the result is not a listing.
func listPage(method string, raw []byte, width int) string {
	field := map[string]string{
		mcp.MethodToolsList: "tools", mcp.MethodResourcesList: "resources",
		mcp.MethodResourceTemplatesList: "resourceTemplates", mcp.MethodPromptsList: "prompts",
		mcp.MethodSkillsList: "skills",
	}[method]
	var page map[string]json.RawMessage
	var items []json.RawMessage
	if json.Unmarshal(raw, &page) != nil || json.Unmarshal(page[field], &items) != nil || items == nil {
		return ""
	}
	out := endLine(listTable(field, items, width))
	var cursor string
	if json.Unmarshal(page["nextCursor"], &cursor) == nil && cursor != "" {
		out += "next cursor: " + termtext.Quote(cursor) + "\n"
	}
	return out
}

// entry is what a table shows of one listing entry.
type entry struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	URI         string          `json:"uri"`
	URITemplate string          `json:"uriTemplate"`
	MimeType    string          `json:"mimeType"`
	Meta        json.RawMessage `json:"_meta"`
	Arguments   []struct {
		Name     string `json:"name"`
		Required bool   `json:"required"`
	} `json:"arguments"`
}

// listTable renders the entries of one list as a table, its columns chosen
// by field; "no tools" and the like when it is empty.
func listTable(field string, items []json.RawMessage, width int) string {
	if len(items) == 0 {
		if field == "resourceTemplates" {
			return "no resource templates"
		}
		return "no " + field
	}
	var headers []string
	var row func(e entry) []string
	switch field {
	case "tools":
		headers = []string{"NAME", "TITLE", "APP", "DESCRIPTION"}
		row = func(e entry) []string { return []string{e.Name, e.Title, appOf(e), firstLine(e.Description)} }
	case "prompts":
		headers = []string{"NAME", "TITLE", "ARGUMENTS", "DESCRIPTION"}
		row = func(e entry) []string { return []string{e.Name, e.Title, arguments(e), firstLine(e.Description)} }
	case "resources":
		headers = []string{"URI", "NAME", "MIME", "DESCRIPTION"}
		row = func(e entry) []string { return []string{e.URI, e.Name, e.MimeType, firstLine(e.Description)} }
	case "resourceTemplates":
		headers = []string{"URI TEMPLATE", "NAME", "MIME", "DESCRIPTION"}
		row = func(e entry) []string { return []string{e.URITemplate, e.Name, e.MimeType, firstLine(e.Description)} }
	case "skills":
		headers, rows := skillRows(items)
		return Table(headers, rows, width)
	default:
		return JSON(listDocument(field, items))
	}
	rows := make([][]string, 0, len(items))
	for _, it := range items {
		var e entry
		if json.Unmarshal(it, &e) != nil {
			e = entry{Description: compactLine(it)}
		}
		cells := row(e)
		for i := range cells {
			cells[i] = termtext.OneLine(cells[i])
		}
		rows = append(rows, cells)
	}
	headers, rows = dropEmptyColumns(headers, rows)
	return fit(headers, rows, width)
}

// firstLine is the first non-blank line of s.
func firstLine(s string) string {
	for l := range strings.Lines(s) {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// arguments lists a prompt's argument names, a required one marked "*".
func arguments(e entry) string {
	names := make([]string, 0, len(e.Arguments))
	for _, a := range e.Arguments {
		if a.Required {
			a.Name += "*"
		}
		names = append(names, a.Name)
	}
	return strings.Join(names, " ")
}

// dropEmptyColumns leaves out the columns after the first that no row
// fills (no tool has a title, no prompt takes arguments).
func dropEmptyColumns(headers []string, rows [][]string) ([]string, [][]string) {
	keep := []int{0}
	for c := 1; c < len(headers); c++ {
		for _, r := range rows {
			if r[c] != "" {
				keep = append(keep, c)
				break
			}
		}
	}
	pick := func(cells []string) []string {
		out := make([]string, len(keep))
		for i, c := range keep {
			out[i] = cells[c]
		}
		return out
	}
	for i := range rows {
		rows[i] = pick(rows[i])
	}
	return pick(headers), rows
}

// fit lays the rows out under the headers in aligned columns. Within width
// cells (> 0) the last column is cut with "…", or left out when less than
// minLastColumn cells would be left for it; the other columns are never
// cut, so a name can be copied whole.
func fit(headers []string, rows [][]string, width int) string {
	last := len(headers) - 1
	if width > 0 && last > 0 {
		used := 0
		for c := range last {
			w := ansi.StringWidth(headers[c])
			for _, r := range rows {
				w = max(w, ansi.StringWidth(r[c]))
			}
			used += w + columnGap
		}
		room := width - used
		if room < minLastColumn {
			headers = headers[:last]
			for i := range rows {
				rows[i] = rows[i][:last]
			}
		} else {
			for _, r := range rows {
				r[last] = ansi.Truncate(r[last], room, "…")
			}
		}
	}
	last = len(headers) - 1
	t := table.New().Headers(headers...).Rows(rows...).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(false).
		StyleFunc(func(_, col int) lipgloss.Style {
			if col == last {
				return lipgloss.NewStyle()
			}
			return lipgloss.NewStyle().PaddingRight(columnGap)
		})
	lines := strings.Split(t.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// listDocument is {"field":[items…]}.
func listDocument(field string, items []json.RawMessage) []byte {
	doc, _ := json.Marshal(map[string][]json.RawMessage{field: items})
	return doc
}
