package flowtest

import (
	"runtime"
	"sync"
	"time"
)

// HeapSampler samples runtime.MemStats.HeapInuse of the whole process
// (client and in-process server alike) and keeps the peak.
type HeapSampler struct {
	stop       chan struct{}
	done       sync.WaitGroup
	peak       uint64
	goroutines int // the most goroutines seen at once
}

// SampleHeap collects garbage, then samples HeapInuse every interval until
// Stop.
func SampleHeap(every time.Duration) *HeapSampler {
	runtime.GC()
	h := &HeapSampler{stop: make(chan struct{})}
	h.sample()
	h.done.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				h.sample()
			}
		}
	})
	return h
}

func (h *HeapSampler) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h.peak = max(h.peak, m.HeapInuse)
	h.goroutines = max(h.goroutines, runtime.NumGoroutine())
}

// PeakGoroutines returns the most goroutines seen at once; call it after
// Stop.
func (h *HeapSampler) PeakGoroutines() int { return h.goroutines }

// Stop ends the sampling and returns the peak HeapInuse in bytes.
func (h *HeapSampler) Stop() uint64 {
	close(h.stop)
	h.done.Wait()
	h.sample()
	return h.peak
}
