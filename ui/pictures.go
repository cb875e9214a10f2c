package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/ui/pictures"
)

// pictureDelay is how long after a view asks for a picture it is
// encoded and sent: past the renderer's next frame, so that the blank box
// an iTerm2 or sixel picture is drawn over is on screen first (the Board
// waits again when a later view moved it).
const pictureDelay = 2 * pictures.Frame

// picturesMsg says the pictures' Board has encoded what it has to send:
// Flush sends it.
type picturesMsg struct{}

// SetImages makes the Model show images in protocol p (media.Detect): in
// the terminal's own pictures for kitty, iTerm2 and sixel, in half blocks
// for Blocks, as their one-line description for Off. Call it before the
// program starts.
func (m *Model) SetImages(p media.Protocol) { m.usePictures(pictures.New(p)) }

// usePictures shows images on b.
func (m *Model) usePictures(b *pictures.Board) {
	m.styles.Pictures = b
	m.detail.restyle()
	m.syncSelection()
}

// startPictures starts sending the pictures the views ask for, and asks
// a sixel terminal the size of its cells.
func (m *Model) startPictures() tea.Cmd {
	b := m.styles.Pictures
	if !b.Shows() {
		return nil
	}
	m.picturesLoop = true
	if b.Protocol() == media.Sixel {
		return tea.Batch(tea.Raw(ansi.WindowOp(ansi.RequestCellSizeWinOp)), m.waitPictures())
	}
	return m.waitPictures()
}

// waitPictures waits until the Board has something to send, then for
// pictureDelay, then encodes it: on the command's goroutine, so that
// Update only writes what is encoded.
func (m *Model) waitPictures() tea.Cmd {
	b, ctx := m.styles.Pictures, m.ctx
	wake := b.Wake()
	return func() tea.Msg {
		select {
		case <-wake:
		case <-ctx.Done():
			return nil
		}
		t := time.NewTimer(pictureDelay)
		defer t.Stop()
		select {
		case <-t.C:
			b.Encode()
			return picturesMsg{}
		case <-ctx.Done():
			return nil
		}
	}
}

// updatePictures handles what concerns the pictures: sends what the
// Board has (and waits again once started), draws the pictures again
// after a resize (the renderer draws the whole screen again), scales
// sixel pictures to the cells the terminal reports and tells the Board
// the colours the renderer writes.
func (m *Model) updatePictures(msg tea.Msg) tea.Cmd {
	b := m.styles.Pictures
	switch msg := msg.(type) {
	case picturesMsg:
		var cmds []tea.Cmd
		if raw := b.Flush(); raw != "" {
			cmds = append(cmds, tea.Raw(raw))
		}
		if m.picturesLoop {
			cmds = append(cmds, m.waitPictures())
		}
		return tea.Batch(cmds...)
	case tea.WindowSizeMsg:
		b.Redrawn()
	case tea.ColorProfileMsg:
		gen := b.Gen()
		b.SetColourProfile(msg.Profile)
		if b.Gen() != gen {
			m.syncSelection() // the detail lays its pictures out again
		}
	case uv.CellSizeEvent:
		b.SetCellSize(msg.Width, msg.Height)
	}
	return nil
}

// ForgetPictures is what has the terminal forget the kitty images it was
// sent, to write once the program has ended; "" for other protocols.
func (m *Model) ForgetPictures() string { return m.styles.Pictures.Forget() }

// ForgetPictures is Model.ForgetPictures.
func (r *Replay) ForgetPictures() string { return r.inner.ForgetPictures() }

// ForgetPictures is Model.ForgetPictures.
func (a *Attach) ForgetPictures() string { return a.inner.ForgetPictures() }
