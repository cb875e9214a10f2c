package recordings

import (
	"errors"
	"io"
	"sync"
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// Speeds a Player plays at: the recorded pacing, ten times faster, or as
// fast as the records can be applied.
const (
	SpeedLive   = 1
	SpeedFast   = 10
	SpeedAtOnce = 0
)

// Position is where a Player stands on a recording's timeline.
type Position struct {
	Frames  int64     // frame records applied
	Total   int64     // frame records in the file, -1 while still being counted
	Start   time.Time // the recording's start
	At      time.Time // the time of the last record applied (Start before any)
	Playing bool
	Speed   float64 // SpeedLive, SpeedFast or SpeedAtOnce
	Done    bool    // every record has been applied
	Seeking bool    // rebuilding the store for a jump back
	Problem error   // a torn tail or corrupt lines, as the reader reported them
	// Transport is the transport the recording's link line named
	// (client.LinkState.Transport), "" before it.
	Transport string
}

// Rebuilt tells a Player's user that a jump back replaced the store: the
// panes must show Store from now on.
type Rebuilt struct{ Store *capture.Store }

// command is what the Player's goroutine is asked to do.
type command struct {
	play   *float64      // play at this speed
	pause  bool          // stop playing
	step   int           // apply this many more frames (negative: go back)
	seek   time.Duration // jump by this much recorded time
	toEnd  bool          // apply everything
	toHead bool          // back to the start
}

// Player plays a recording into a Store: at its recorded pace, ten times
// faster or at once; one frame at a time; jumping by recorded time, a
// jump back rebuilding the store from the start (Rebuilt). One goroutine
// owns the file and the store; the methods only send it commands.
type Player struct {
	path   string
	cfg    capture.Config
	header Header
	cmds   chan command
	events chan Rebuilt
	done   chan struct{}
	stop   chan struct{}

	first *capture.Store

	closing sync.Once

	mu  sync.Mutex
	pos Position
	// read says the reader has read the whole file once: Total is the
	// frames it read, not the background count.
	read bool

	// owned by the goroutine
	rd      *Reader
	rp      *Replayer
	store   *capture.Store
	next    *Record // read, not yet applied
	playing bool
	speed   float64
	wall    time.Time // when the last record was applied (or play pressed)
	cursor  time.Time // where a jump by time landed, when no record was there
}

// NewPlayer opens the recording at path, ready to play into a store with
// cfg's bounds (Store), and starts playing at speed. The frames are
// counted in the background (Position.Total).
func NewPlayer(path string, cfg capture.Config, speed float64) (*Player, error) {
	rd, err := Open(path)
	if err != nil {
		return nil, err
	}
	p := &Player{path: path, cfg: cfg, header: rd.Header(), cmds: make(chan command, 16), events: make(chan Rebuilt, 1),
		done: make(chan struct{}), stop: make(chan struct{}), playing: true, speed: speed, rd: rd}
	p.store, p.rp = NewStore(cfg)
	p.first = p.store
	p.pos = Position{Total: -1, Start: p.header.Started, At: p.header.Started, Playing: true, Speed: speed}
	go p.count()
	go p.run()
	return p, nil
}

// Header is the recording's header.
func (p *Player) Header() Header { return p.header }

// Store is the store the Player fills first; each Rebuilt names the one
// that replaces it.
func (p *Player) Store() *capture.Store { return p.first }

// Rebuilds delivers a Rebuilt after each jump back.
func (p *Player) Rebuilds() <-chan Rebuilt { return p.events }

// Position returns where the Player stands.
func (p *Player) Position() Position {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pos
}

// Play plays at speed (SpeedLive, SpeedFast, SpeedAtOnce).
func (p *Player) Play(speed float64) { p.send(command{play: &speed}) }

// Pause stops playing.
func (p *Player) Pause() { p.send(command{pause: true}) }

// Step applies n more frames (n < 0: shows the recording n frames
// earlier) and pauses.
func (p *Player) Step(n int) { p.send(command{step: n}) }

// Seek jumps by d of recorded time (back when negative) and pauses.
func (p *Player) Seek(d time.Duration) { p.send(command{seek: d}) }

// ToEnd applies every record and pauses.
func (p *Player) ToEnd() { p.send(command{toEnd: true}) }

// ToStart goes back to the start and pauses, set to play at the recorded
// pace (SpeedLive) whatever speed it played at before.
func (p *Player) ToStart() { p.send(command{toHead: true}) }

// Close stops the Player and closes its file.
func (p *Player) Close() {
	p.closing.Do(func() { close(p.stop) })
	<-p.done
}

// send hands c to the Player's goroutine without ever waiting: while it
// is busy (a long jump back) and 16 commands wait, more keys are dropped,
// so the UI never freezes.
func (p *Player) send(c command) {
	select {
	case p.cmds <- c:
	default:
	}
}

// count counts the frames of the file without decoding them.
func (p *Player) count() {
	e := Describe(p.path)
	if e.Err != nil {
		return
	}
	p.mu.Lock()
	if !p.read {
		p.pos.Total = e.Frames
	}
	p.mu.Unlock()
}

// batch is how many records a Player applies between two looks at its
// commands while it plays at once.
const batch = 1024

// run is the Player's goroutine.
func (p *Player) run() {
	defer close(p.done)
	defer func() { _ = p.rd.Close() }()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	p.wall = time.Now()
	for {
		var wake <-chan time.Time
		if p.playing {
			if d := p.delay(); d > 0 {
				timer.Reset(d)
				wake = timer.C
			} else {
				for i := 0; i < batch && p.playing && p.delay() <= 0; i++ {
					p.playing = p.applyNext()
				}
				p.publish()
				select {
				case c := <-p.cmds:
					p.do(c)
					p.publish()
				case <-p.stop:
					return
				default:
				}
				continue
			}
		}
		select {
		case c := <-p.cmds:
			timer.Stop()
			p.do(c)
		case <-wake:
		case <-p.stop:
			return
		}
		p.publish()
	}
}

// delay is how long to wait before the next record at the speed played:
// its recorded distance from the last one applied, divided by the speed.
func (p *Player) delay() time.Duration {
	next := p.peek()
	if p.speed == SpeedAtOnce || next == nil {
		return 0
	}
	gap := time.Duration(float64(next.Time.Sub(p.at())) / p.speed)
	return time.Until(p.wall.Add(gap))
}

// peek reads the next record, once; nil at the end of what can be read.
func (p *Player) peek() *Record {
	for p.next == nil && !p.pos.Done {
		rec, err := p.rd.Next()
		var ce *CorruptError
		switch {
		case err == nil:
			p.next = rec
		case errors.As(err, &ce):
			p.problem(err)
		default:
			if err != io.EOF {
				p.problem(err)
			}
			p.mu.Lock()
			// What the reader read is the truth: a frame line it found
			// corrupt was counted but never applied.
			p.pos.Done, p.pos.Total, p.read = true, p.rp.Frames(), true
			p.mu.Unlock()
		}
	}
	return p.next
}

// problem keeps the first thing the reader reported.
func (p *Player) problem(err error) {
	p.mu.Lock()
	if p.pos.Problem == nil {
		p.pos.Problem = err
	}
	p.mu.Unlock()
}

// applyNext applies the next record; false at the end.
func (p *Player) applyNext() bool {
	rec := p.peek()
	if rec == nil {
		return false
	}
	p.next = nil
	p.rp.Apply(rec)
	p.wall = time.Now()
	return true
}

// applyWhile applies records while keep accepts the next one, looking at
// p.stop every batch records.
func (p *Player) applyWhile(keep func(next *Record) bool) {
	for i := 1; ; i++ {
		next := p.peek()
		if next == nil || !keep(next) {
			return
		}
		p.applyNext()
		if i%batch == 0 {
			p.publish()
			select {
			case <-p.stop:
				return
			default:
			}
		}
	}
}

// at is where the player stands on the recorded timeline: the time of
// the last record applied, or later where a jump by time landed between
// records, or the start.
func (p *Player) at() time.Time {
	now := p.rp.Now()
	if now.IsZero() {
		now = p.header.Started
	}
	if p.cursor.After(now) {
		return p.cursor
	}
	return now
}

// do carries out one command.
func (p *Player) do(c command) {
	switch {
	case c.play != nil:
		p.playing, p.speed, p.wall = true, *c.play, time.Now()
		return
	case c.pause:
	case c.step > 0:
		want := p.rp.Frames() + int64(c.step)
		p.applyWhile(func(*Record) bool { return p.rp.Frames() < want })
	case c.step < 0:
		want := max(0, p.rp.Frames()+int64(c.step))
		p.rebuild(func(next *Record) bool { return p.rp.Frames() < want || next.Kind != RecFrame })
	case c.seek > 0:
		to := p.at().Add(c.seek)
		p.applyWhile(func(next *Record) bool { return !next.Time.After(to) })
		p.cursor = to // an idle gap is crossed a jump at a time
	case c.seek < 0:
		to := p.at().Add(c.seek)
		p.rebuild(func(next *Record) bool { return !next.Time.After(to) })
		p.cursor = to
	case c.toEnd:
		p.applyWhile(func(*Record) bool { return true })
	case c.toHead:
		p.rebuild(func(*Record) bool { return false })
		p.speed = SpeedLive // played from the start, a recording plays as it was recorded
	}
	p.playing = false
}

// rebuild starts again from the top of the file into a fresh store,
// applies records while keep accepts them, and hands the store over.
func (p *Player) rebuild(keep func(next *Record) bool) {
	rd, err := Open(p.path)
	if err != nil {
		p.problem(err)
		return
	}
	_ = p.rd.Close()
	p.rd, p.next, p.cursor = rd, nil, time.Time{}
	p.store, p.rp = NewStore(p.cfg)
	p.mu.Lock()
	p.pos.Done, p.pos.Problem, p.pos.Seeking = false, nil, true
	p.mu.Unlock()
	p.publish()
	p.applyWhile(keep)
	p.mu.Lock()
	p.pos.Seeking = false
	p.mu.Unlock()
	select {
	case <-p.events: // an older store nobody took
	default:
	}
	p.events <- Rebuilt{Store: p.store}
}

// publish updates the Position others read.
func (p *Player) publish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pos.Frames = p.rp.Frames()
	p.pos.At = p.at()
	p.pos.Playing, p.pos.Speed, p.pos.Transport = p.playing, p.speed, p.rp.Transport
}
