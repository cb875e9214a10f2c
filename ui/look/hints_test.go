package look

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
)

func bind(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }

// hintFixture is a screen's keys, the most used first: f is the key the
// screen cannot be used without, esc closes it.
func hintFixture() (open key.Binding, m keyhelp.Map) {
	f, esc := bind("f", "the one that matters"), bind("esc", "close")
	return bind("?", "help"), keyhelp.Map{
		Short: []key.Binding{bind("a", "first by use"), bind("b", "second by use"), bind("c", "third by use"),
			bind("d", "fourth by use"), f, bind("g", "last by use"), esc},
		Essential: []key.Binding{f, esc},
	}
}

// The hint bar keeps the help key and the essential keys at every width,
// fills the rest by rank (never a key after one left out), marks the cut
// with an ellipsis, and is exactly w columns wide.
func TestHintBarRanks(t *testing.T) {
	st := NewStyles(true)
	open, m := hintFixture()
	for _, c := range []struct {
		w          int
		want, lost []string
	}{
		{200, []string{"? help", "a first", "d fourth", "f the one", "g last", "esc close"}, []string{"…"}},
		{100, []string{"? help • a first by use • b second by use • c third by use • … • f the one that matters • esc close"}, []string{"d fourth"}},
		{80, []string{"? help • a first by use • … • f the one that matters • esc close"}, []string{"b second"}},
		{50, []string{"? help • … • f the one that matters • esc close"}, []string{"a first"}},
		{40, []string{"? help • … • f the one that matters"}, []string{"a first", "esc"}}, // too narrow for every essential key: the least used goes
	} {
		got := ansi.Strip(st.HintBar(open, m, c.w))
		if ansi.StringWidth(got) != c.w {
			t.Errorf("w=%d: the bar is %d columns: %q", c.w, ansi.StringWidth(got), got)
		}
		for _, s := range c.want {
			if !strings.Contains(got, s) {
				t.Errorf("w=%d: %q lacks %q", c.w, got, s)
			}
		}
		for _, s := range c.lost {
			if strings.Contains(got, s) {
				t.Errorf("w=%d: %q holds %q", c.w, got, s)
			}
		}
	}
}

// Disabled keys and keys without help are not hints.
func TestHintBarSkipsDisabled(t *testing.T) {
	st := NewStyles(true)
	off := bind("x", "off")
	off.SetEnabled(false)
	got := ansi.Strip(st.HintBar(bind("?", "help"), keyhelp.Map{Short: []key.Binding{off, key.NewBinding(key.WithKeys("y")), bind("z", "on")}}, 40))
	if strings.TrimRight(got, " ") != "? help • z on" {
		t.Errorf("bar %q", got)
	}
}
