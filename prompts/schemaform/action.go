package schemaform

import "fmt"

// Action tells the root what a message did to the form.
type Action int

const (
	// ActionNone: the message was handled (or ignored); nothing to do.
	ActionNone Action = iota
	// ActionSubmit: the user submitted and the value validates; read Value.
	ActionSubmit
	// ActionCancel: the user abandoned the form (esc).
	ActionCancel
	// ActionEditJSON: the form switched to its JSON editor (ctrl+e, or a
	// schema the form cannot express). The form keeps handling messages and
	// rendering; the root may refresh the help from KeyMap.
	ActionEditJSON
)

// String names the action.
func (a Action) String() string {
	switch a {
	case ActionNone:
		return "none"
	case ActionSubmit:
		return "submit"
	case ActionCancel:
		return "cancel"
	case ActionEditJSON:
		return "edit-json"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// FieldError is one problem with the value: Path is the JSON pointer of the
// value concerned ("" for the whole object, "/address/zip" for a nested
// field) and Message says what is wrong in one phrase.
type FieldError struct {
	Path    string
	Message string
}

// Error implements error.
func (e FieldError) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}
