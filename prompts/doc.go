// Package prompts draws the input widgets of interactive sessions (seed
// 002, interaction.prompt): one Widget per prompt type — text, choice
// (single or, with Multiple, several), confirm, number, date (a calendar
// plus typed YYYY-MM-DD; "date-time" adds a time and an offset), file (a
// picker whose answer is the chosen file's content, or with
// Options.PathOnly its path) and custom (a JSON editor validated against
// the prompt's schema).
//
// A Widget validates the answer on the client first, with the prompt's
// declared rules (required, pattern, min and max: a length for text, a
// value for numbers), and says in words what is wrong. A server that
// refuses an answer anyway (interaction.respond → accepted:false) has its
// reason shown at the widget with SetRefusal until the user edits the
// answer. Value is the JSON to send as interaction.respond's
// response.value.
//
// Widgets are plain components in the house style: the root model
// forwards messages to Update, which returns an Action (ActionSubmit when
// the answer is ready, ActionCancel when the user gives up), and draws
// Render(w, h). Progress and Countdown draw a session's progress and its
// expiry.
//
// The date input's core (calendar and parsers) is the leaf package
// prompts/calendar, shared with prompts/schemaform; this package imports
// prompts/schemaform for its JSON editor, so schemaform must never import it.
package prompts
