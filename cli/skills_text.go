package cli

import (
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/mcpscope/mcpscope/client/skills"
	"github.com/mcpscope/mcpscope/internal/app/resulttext"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// skillFilesText renders one skill: its name and description, then its
// files (uri, size, digest).
func skillFilesText(s mcp.Skill, width int) string {
	fm := s.Named()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", termtext.OneLine(fm.Name), termtext.OneLine(fm.Description))
	if s.Resources.Dynamic {
		b.WriteString(`files: "dynamic" (the server does not list them)` + "\n")
		return b.String()
	}
	rows := make([][]string, 0, len(s.Resources.Files))
	for _, f := range s.Resources.Files {
		rows = append(rows, []string{f.URI, sizeText(f.Size), f.Digest})
	}
	b.WriteString(resulttext.Table([]string{"URI", "SIZE", "DIGEST"}, rows, width))
	return b.String()
}

// sizeText renders a declared size, "?" when there is none.
func sizeText(n *int64) string {
	if n == nil || *n < 0 {
		return "?"
	}
	return humanize.IBytes(uint64(*n))
}

// verifyText renders a verification: one row per skill, its outcome, how
// many of its files were verified and, when it did not pass, why and the
// file.
func verifyText(reports []skills.Report, width int) string {
	if len(reports) == 0 {
		return "no skills\n"
	}
	rows := make([][]string, 0, len(reports))
	for _, rep := range reports {
		verified := 0
		for _, f := range rep.Files {
			if f.State == skills.FileVerified {
				verified++
			}
		}
		reason := rep.Reason
		if rep.File != "" && rep.Outcome != skills.Verified {
			reason = rep.File + ": " + reason
		}
		name := rep.Name
		if name == "" {
			name = rep.URI
		}
		rows = append(rows, []string{name, string(rep.Outcome), fmt.Sprintf("%d/%d", verified, len(rep.Files)), reason})
	}
	return resulttext.Table([]string{"SKILL", "OUTCOME", "FILES", "REASON"}, rows, width)
}
