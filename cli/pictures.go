package cli

import (
	"bytes"
	"context"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/internal/app/plural"
)

// maxPictures bounds the images of one result drawn at a terminal.
const maxPictures = 8

// pictureTerminal is a stand-in terminal that says how it shows pictures
// (media.ParseProtocol), as the tests' terminals do.
type pictureTerminal interface {
	PictureProtocol() string
}

// pictureProtocol says how the terminal out is sent pictures: what a
// stand-in says, what the environment says of a real terminal
// (media.Detect; a bad MCPSCOPE_IMAGES is reported on diag), and none
// for anything else.
func pictureProtocol(out io.Writer, diag *lineWriter) media.Protocol {
	switch t := out.(type) {
	case pictureTerminal:
		p, _ := media.ParseProtocol(t.PictureProtocol())
		return p
	case *os.File:
		if !term.IsTerminal(t.Fd()) {
			return media.Off
		}
		p, err := media.Detect(os.Getenv)
		if err != nil {
			diag.Println("warning: " + err.Error())
		}
		return p
	}
	return media.Off
}

// pictures draws the images of a result for the terminal stdout is, after
// its text: in the terminal's own protocol where it has one, else in half
// blocks brought down to the colours it shows; "" when stdout is no
// terminal, MCPSCOPE_IMAGES=off, or half blocks would have no colours
// (NO_COLOR, a dumb terminal). An image that does not decode is left to
// its text line, which names it; once ctx ends, or --max-time has passed
// since the request was sent, no more are drawn.
func (r *run) pictures(ctx context.Context, raw []byte, width int) string {
	p := pictureProtocol(r.io.out, r.io.diag)
	if p == media.Off {
		return ""
	}
	if r.flags != nil && !r.sent.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, r.sent.Add(r.flags.maxTime))
		defer cancel()
	}
	profile := colorprofile.TrueColor
	switch t := r.io.out.(type) {
	case interface{ ColorProfile() colorprofile.Profile }:
		profile = t.ColorProfile()
	case *os.File:
		profile = colorprofile.Detect(t, os.Environ())
	}
	if p == media.Blocks && profile <= colorprofile.Ascii {
		return ""
	}
	cols := media.PreviewCols
	if width > 0 {
		cols = min(cols, width)
	}
	var b bytes.Buffer
	drawn, late := 0, 0
	for _, it := range media.Items(raw) {
		if it.Kind != "image" || drawn == maxPictures {
			continue
		}
		if ctx.Err() != nil {
			late++
			continue
		}
		data, err := it.Bytes()
		if err != nil {
			continue
		}
		img, _, err := media.Decode(data)
		if err != nil {
			continue
		}
		pic, err := media.Inline(p, img, cols, media.PreviewRows)
		if err != nil {
			r.io.diag.Println("warning: " + err.Error())
			continue
		}
		b.WriteString(pic)
		drawn++
	}
	if late > 0 {
		r.io.diag.Println("warning: " + plural.Count(late, "picture", "pictures") + " not drawn: --max-time ran out")
	}
	if p != media.Blocks || b.Len() == 0 {
		return b.String()
	}
	var out bytes.Buffer
	w := &colorprofile.Writer{Forward: &out, Profile: profile}
	_, _ = w.Write(b.Bytes())
	return out.String()
}

// tuiPictures is how a TUI writing to out shows images: as the
// environment says (media.Detect) at a terminal, in half blocks on
// anything else (a pipe gets cells, never a picture).
func tuiPictures(out io.Writer) (media.Protocol, error) {
	if !isTerminal(out) {
		return media.Blocks, nil
	}
	return media.Detect(os.Getenv)
}

// picturesForgetter is a TUI model that says how the terminal forgets
// the pictures it was sent (ui.Model.ForgetPictures).
type picturesForgetter interface{ ForgetPictures() string }

// forgetPictures has the terminal out forget the pictures m sent it,
// once the TUI has ended.
func forgetPictures(out io.Writer, m tea.Model) {
	if f, ok := m.(picturesForgetter); ok && isTerminal(out) {
		if s := f.ForgetPictures(); s != "" {
			_, _ = io.WriteString(out, s)
		}
	}
}
