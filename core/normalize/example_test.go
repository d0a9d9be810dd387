package normalize_test

import (
	"fmt"

	"github.com/agenttool/collab/core/normalize"
)

func ExampleLowerJS() {
	fmt.Printf("%+q\n", normalize.LowerJS("\u0391\u03a3 \u0130"))
	// Output: "\u03b1\u03c2 i\u0307"
}

func ExampleCleanText() {
	title, err := normalize.CleanText("\uFEFF  Build parser \n", "title", 300)
	fmt.Printf("%q %v\n", title, err)
	_, err = normalize.CleanText("   ", "title", 300)
	fmt.Println(err)
	// Output:
	// "Build parser" <nil>
	// invalid_title: title is empty or only white space; give it a value
}

func ExampleCapabilities() {
	caps, err := normalize.Capabilities([]string{"Review", " edit ", "review"})
	fmt.Println(caps, err)
	// Output: [edit review] <nil>
}
