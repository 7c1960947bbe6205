// Package repo holds the checks of the repository as a whole, and nothing
// else: its layout (files of one concern, no copies of other projects,
// comments that cite only the repository), the exported API of the public
// packages (api/agentfmt.txt) and what those packages must have (a package
// comment, a runnable example, no internal type in what they export).
//
// Its tests read the tree from the repository's root, two folders up. They
// live here rather than in the root package so that their test binary does
// not link the command (the root package is main).
package repo
