package capture

import "testing"

func TestReleasesUnheld(t *testing.T) {
	keeper := SinkFunc(func(*Frame) uint64 { return 0 }) // may keep anything
	store := NewStore(Config{})
	cases := []struct {
		name string
		sink Sink
		want bool
	}{
		{"store", store, true},
		{"discard", Discard, true},
		{"sink func", keeper, false},
		{"tee of releasers", Tee(store, Discard), true},
		{"tee with a keeper", Tee(store, keeper), false},
	}
	for _, c := range cases {
		if got := ReleasesUnheld(c.sink); got != c.want {
			t.Errorf("%s: ReleasesUnheld = %v, want %v", c.name, got, c.want)
		}
	}
}
