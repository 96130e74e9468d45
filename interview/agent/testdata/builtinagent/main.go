// Command builtinagent is the built-in engine behind the agent's contract:
// it reads the charter at $1 and prints interview.Next's response for mode
// $2 as one JSON object, as rp1's stateless interviewer does. The agent
// tests drive whole interviews through it and must end with the charter
// the engine writes by itself.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/charter-lsp/charter-lsp/interview"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: builtinagent CHARTER_PATH MODE")
		os.Exit(2)
	}
	text, err := os.ReadFile(os.Args[1])
	r := interview.Next(text, err == nil, interview.Options{Mode: os.Args[2]})
	out, err := json.Marshal(r)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(string(out))
}
