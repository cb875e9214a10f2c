package ui

import (
	"fmt"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/contentsave"
	"github.com/mcpscope/mcpscope/ui/look"
)

// mediaRows previews the images and audio clips of a result frame, above
// its JSON: each named by its kind, MIME type and place among the frame's
// items, then drawn (look.ItemPreview) at most w cells wide. None for any
// other frame.
func mediaRows(in detailInput, w int) fixedRows {
	m := in.f.Msg
	if m == nil || m.Kind() != jsonrpc.KindResult {
		return nil
	}
	items := media.Items(m.Result)
	if len(items) == 0 {
		return nil
	}
	var rows fixedRows
	for i, it := range items {
		head := fmt.Sprintf("%s %d of %d · %s", it.Kind, i+1, len(items), it.MimeType)
		if it.URI != "" {
			head += " · " + it.URI
		}
		rows = append(rows, in.st.Ink.Accent.Paint(termtext.Line(head)))
		if i < look.MaxPreviews {
			rows = append(rows, look.ItemPreview(it, min(w, look.PreviewCols), look.PreviewRows, in.st)...)
		}
	}
	return append(rows, in.st.Ink.Muted.Paint(contentsave.Key().Help().Key+" saves them to files, one a press"), "")
}
