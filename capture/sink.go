package capture

// SinkFunc adapts a function to a Sink.
type SinkFunc func(f *Frame) uint64

// Append calls fn(f).
func (fn SinkFunc) Append(f *Frame) uint64 { return fn(f) }

// Tee returns a Sink that hands each frame to every sink in order (nil sinks
// are skipped) and returns the first non-zero Seq they return. Sinks after a
// Store see the frame as the Store left it: Seq set, Raw possibly capped.
func Tee(sinks ...Sink) Sink {
	var kept []Sink
	for _, k := range sinks {
		if k != nil {
			kept = append(kept, k)
		}
	}
	switch len(kept) {
	case 0:
		return Discard
	case 1:
		return kept[0]
	}
	return tee(kept)
}

type tee []Sink

// Append fans f out to every sink.
func (t tee) Append(f *Frame) uint64 {
	var seq uint64
	for _, k := range t {
		if n := k.Append(f); seq == 0 {
			seq = n
		}
	}
	return seq
}
