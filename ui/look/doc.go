// Package look is how every pane and screen of the UI looks: the theme's
// styles and tints for dark and light backgrounds (Styles), fitting text
// into cells and blocks, JSON highlighting, and the rendered answer to a
// request (Outcome). It imports no other UI package but ui/nav.
package look
