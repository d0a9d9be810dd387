package main

// fakeAgentEnv makes the test binary a stand-in terminal agent: it puts
// its terminal in raw mode, asks for bracketed paste as Codex's TUI and
// aider do, and appends every read from the terminal to the named file as
// "<unix nanoseconds> <hex bytes>" lines, so a test sees exactly what push
// typed and when it arrived.
const fakeAgentEnv = "COLLAB_TEST_FAKE_AGENT"
