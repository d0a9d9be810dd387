// Package termtext makes text that agents wrote safe to print on a
// person's terminal. Journal text (actor labels, titles, report bodies,
// summaries, paths) is data, never terminal commands: an ESC, BEL or C1
// control in it could otherwise set the window title, clear the screen,
// move the cursor over earlier lines or write the clipboard (OSC 52).
//
// What is escaped, in every string:
//   - C0 controls U+0000–U+001F and DEL U+007F, as \xNN (\r as \r), except
//     that Body keeps line feed and tab;
//   - C1 controls U+0080–U+009F (CSI U+009B, OSC U+009D, ...), as \uNNNN;
//   - the bidirectional formatting characters that reorder what is shown
//     ("Trojan Source": U+061C, U+200E, U+200F, U+202A–U+202E,
//     U+2066–U+2069) and the line and paragraph separators U+2028 and
//     U+2029, as \uNNNN;
//   - bytes that are not UTF-8, as \xNN.
//
// Everything else is printed as it is, backslashes included: the escapes
// are for reading, not a reversible encoding. Machine output (--json)
// does not go through here; JSON encoding escapes C0 itself and a program,
// not a person, reads it.
package termtext
