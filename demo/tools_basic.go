package demo

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"
)

// Audio format of tone: raw PCM, signed 16-bit little-endian, mono.
const (
	SampleRate       = 16000
	FrameSamples     = 320 // 20 ms per datagram
	frameDuration    = 20 * time.Millisecond
	maxToneMs        = 10 * 60 * 1000
	maxInlineToneMs  = 10 * 1000
	maxAnalyzeSteps  = 100000
	maxAnalyzeWaitMs = 60 * 1000
)

// echo answers its message.
func echo(_ context.Context, c *Call) (*ToolResult, error) {
	var a struct {
		Message *string `json:"message"`
	}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	if a.Message == nil {
		return nil, invalidParams("echo needs a message")
	}
	return TextResult(*a.Message), nil
}

// analyze reports one progress update and one log line per step, then
// "analysis complete"; cancellation stops it between steps.
func analyze(ctx context.Context, c *Call) (*ToolResult, error) {
	a := struct {
		Steps      int `json:"steps"`
		IntervalMs int `json:"interval_ms"`
	}{Steps: 10, IntervalMs: 200}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	if a.Steps < 1 || a.Steps > maxAnalyzeSteps {
		return nil, invalidParams("steps must be between 1 and %d, got %d", maxAnalyzeSteps, a.Steps)
	}
	if a.IntervalMs < 0 || a.IntervalMs > maxAnalyzeWaitMs {
		return nil, invalidParams("interval_ms must be between 0 and %d, got %d", maxAnalyzeWaitMs, a.IntervalMs)
	}
	wait := time.Duration(a.IntervalMs) * time.Millisecond
	for i := 1; i <= a.Steps; i++ {
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
		msg := fmt.Sprintf("step %d/%d", i, a.Steps)
		_ = c.Emit.Progress(float64(i), float64(a.Steps), msg)
		_ = c.Emit.Log("info", "analyze", msg)
	}
	return TextResult("analysis complete"), nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// tone sends a sine wave as audio datagrams of 20 ms, paced in real time.
// Without datagrams it answers one inline WAV clip of at most 10 s.
func tone(ctx context.Context, c *Call) (*ToolResult, error) {
	a := struct {
		FreqHz     float64 `json:"freq_hz"`
		DurationMs int     `json:"duration_ms"`
	}{FreqHz: 440, DurationMs: 1000}
	if err := decodeArgs(c, &a); err != nil {
		return nil, err
	}
	if a.FreqHz <= 0 || a.FreqHz > SampleRate/2 {
		return nil, invalidParams("freq_hz must be above 0 and at most %d, got %v", SampleRate/2, a.FreqHz)
	}
	if a.DurationMs < 1 || a.DurationMs > maxToneMs {
		return nil, invalidParams("duration_ms must be between 1 and %d, got %d", maxToneMs, a.DurationMs)
	}
	frames := (a.DurationMs + 19) / 20
	tick := time.NewTicker(frameDuration)
	defer tick.Stop()
	for n := 0; n < frames; n++ {
		err := c.Emit.Audio(pcmFrame(a.FreqHz, n))
		if errors.Is(err, ErrNoDatagrams) {
			return inlineTone(a.FreqHz, a.DurationMs)
		}
		if err != nil {
			return nil, err
		}
		if n+1 < frames {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-tick.C:
			}
		}
	}
	return TextResult(fmt.Sprintf("tone sent: %d datagrams", frames)), nil
}

// pcmFrame returns frame n (FrameSamples samples) of a sine wave at freq,
// with the phase running on across frames.
func pcmFrame(freq float64, n int) []byte {
	b := make([]byte, 0, FrameSamples*2)
	for i := 0; i < FrameSamples; i++ {
		t := float64(n*FrameSamples+i) / SampleRate
		v := int16(math.Round(0.3 * math.MaxInt16 * math.Sin(2*math.Pi*freq*t)))
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

// inlineTone answers tone with one WAV clip as audio content.
func inlineTone(freq float64, durationMs int) (*ToolResult, error) {
	if durationMs > maxInlineToneMs {
		return nil, invalidParams("a tone of %d ms is too long to send inline; at most %d ms without datagrams (use MCP-Flow)", durationMs, maxInlineToneMs)
	}
	samples := durationMs * SampleRate / 1000
	pcm := make([]byte, 0, samples*2)
	for n := 0; len(pcm) < samples*2; n++ {
		pcm = append(pcm, pcmFrame(freq, n)...)
	}
	wav := wavClip(pcm[:samples*2])
	return &ToolResult{Content: []any{
		Text(fmt.Sprintf("tone sent inline: %d ms of %v Hz as one WAV clip (no datagrams on this transport)", durationMs, freq)),
		map[string]string{"type": "audio", "mimeType": "audio/wav", "data": base64.StdEncoding.EncodeToString(wav)},
	}}, nil
}

// wavClip wraps s16le mono PCM in a RIFF/WAVE header.
func wavClip(pcm []byte) []byte {
	le32 := binary.LittleEndian.AppendUint32
	le16 := binary.LittleEndian.AppendUint16
	b := make([]byte, 0, 44+len(pcm))
	b = append(b, "RIFF"...)
	b = le32(b, uint32(36+len(pcm)))
	b = append(b, "WAVEfmt "...)
	b = le32(b, 16)
	b = le16(b, 1) // PCM
	b = le16(b, 1) // mono
	b = le32(b, SampleRate)
	b = le32(b, SampleRate*2)
	b = le16(b, 2)
	b = le16(b, 16)
	b = append(b, "data"...)
	b = le32(b, uint32(len(pcm)))
	return append(b, pcm...)
}
