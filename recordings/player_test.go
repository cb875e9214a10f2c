package recordings

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
)

// timedRecording writes n control frames one second apart (recorded
// time) and returns its path and the time of the first.
func timedRecording(t *testing.T, n int) (string, time.Time) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p"+Ext)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w, err := Create(path, Header{Target: "demo", Transport: "stdio", Started: start}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		w.Append(&capture.Frame{Time: start.Add(time.Duration(i+1) * time.Second), Dir: capture.In, Conn: "stdio",
			Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message"}` + "\n"), Enc: proto.EncJSON})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path, start
}

// until waits for the player to reach a position ok accepts; the deadline
// only guards against a hang.
func until(t *testing.T, p *Player, what string, ok func(Position) bool) Position {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for {
		pos := p.Position()
		if ok(pos) {
			return pos
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s: the player stayed at %+v", guard.Hang, what, pos)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// At once, the whole recording is applied and counted.
func TestPlayerAtOnceAppliesEverything(t *testing.T) {
	path, _ := timedRecording(t, 50)
	p, err := NewPlayer(path, capture.Config{}, SpeedAtOnce)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pos := until(t, p, "at once", func(pos Position) bool { return pos.Done && !pos.Playing && pos.Total == 50 })
	if pos.Frames != 50 || p.Store().Len() != 50 || pos.Problem != nil {
		t.Errorf("%+v, store %d", pos, p.Store().Len())
	}
}

// Paused at the start: steps, jumps forward by recorded time, jumps back
// (a rebuilt store), back to the start and to the end.
func TestPlayerStepsAndJumps(t *testing.T) {
	path, start := timedRecording(t, 30)
	p, err := NewPlayer(path, capture.Config{}, SpeedLive)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Pause()
	until(t, p, "pause", func(pos Position) bool { return !pos.Playing })
	base := p.Position().Frames // at 1× the first frame is a second away: none yet
	p.Step(3)
	until(t, p, "step 3", func(pos Position) bool { return pos.Frames == base+3 })
	p.Seek(10 * time.Second)
	pos := until(t, p, "seek +10 s", func(pos Position) bool { return pos.Frames == base+13 })
	if !pos.At.Equal(start.Add(time.Duration(base+13) * time.Second)) {
		t.Errorf("at %v", pos.At)
	}
	p.Seek(-5 * time.Second)
	rb := <-p.Rebuilds()
	until(t, p, "seek -5 s", func(pos Position) bool { return pos.Frames == base+8 && !pos.Seeking })
	if rb.Store.Len() != int(base+8) {
		t.Errorf("rebuilt store holds %d frames", rb.Store.Len())
	}
	p.Step(-2)
	rb = <-p.Rebuilds()
	until(t, p, "step -2", func(pos Position) bool { return pos.Frames == base+6 })
	p.ToEnd()
	until(t, p, "end", func(pos Position) bool { return pos.Frames == 30 && pos.Done })
	if rb.Store.Len() != 30 {
		t.Errorf("the store holds %d frames at the end", rb.Store.Len())
	}
	p.ToStart()
	rb = <-p.Rebuilds()
	until(t, p, "start", func(pos Position) bool { return pos.Frames == 0 && pos.At.Equal(start) })
	if rb.Store.Len() != 0 {
		t.Errorf("the store at the start holds %d frames", rb.Store.Len())
	}
}

// At 10×, frames a recorded second apart come a tenth of a second apart:
// the first three arrive, in order, while the rest still wait.
func TestPlayerPacesAtTenTimes(t *testing.T) {
	path, _ := timedRecording(t, 1000)
	p, err := NewPlayer(path, capture.Config{}, SpeedFast)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pos := until(t, p, "10×", func(pos Position) bool { return pos.Frames >= 3 })
	if pos.Done || !pos.Playing || pos.Speed != SpeedFast {
		t.Errorf("%+v", pos)
	}
}

// A torn tail is reported, and everything before it played.
func TestPlayerReportsATornTail(t *testing.T) {
	path, _ := timedRecording(t, 5)
	cutFile(t, path, 20)
	p, err := NewPlayer(path, capture.Config{}, SpeedAtOnce)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pos := until(t, p, "torn", func(pos Position) bool { return pos.Done })
	if pos.Problem == nil || pos.Frames != 5 {
		t.Errorf("%+v", pos)
	}
}

// Jumps by time cross an idle gap longer than the jump: the timeline moves
// even where no record is.
func TestPlayerJumpsCrossIdleGaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gap"+Ext)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w, err := Create(path, Header{Transport: "stdio", Started: start}, Options{Clock: func() time.Time { return start }})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{1, 2, 60} {
		w.Append(&capture.Frame{Time: start.Add(time.Duration(s) * time.Second), Dir: capture.In, Raw: []byte("{}\n")})
	}
	_ = w.Close()
	p, err := NewPlayer(path, capture.Config{}, SpeedLive)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Pause()
	p.Step(2)
	until(t, p, "two frames", func(pos Position) bool { return pos.Frames == 2 })
	for i := range 5 {
		p.Seek(10 * time.Second)
		want := start.Add(time.Duration(12+10*i) * time.Second)
		until(t, p, "a jump into the gap", func(pos Position) bool { return pos.At.Equal(want) && pos.Frames == 2 })
	}
	p.Seek(10 * time.Second)
	until(t, p, "across the gap", func(pos Position) bool { return pos.Frames == 3 })
}

// A frame line the reader finds corrupt is counted in the background but
// never played: once played to the end, the total is what was played.
func TestPlayerTotalIsWhatTheReaderRead(t *testing.T) {
	path, _ := timedRecording(t, 50)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(`{"k":"frame","dir":"sideways","ch":"control","text":"x"}` + "\n")
	if cerr := f.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	p, err := NewPlayer(path, capture.Config{}, SpeedAtOnce)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	until(t, p, "at once", func(pos Position) bool { return pos.Done && pos.Frames == 50 && pos.Total == 50 && pos.Problem != nil })
}
