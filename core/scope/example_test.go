package scope_test

import (
	"fmt"

	"github.com/agenttool/collab/core/scope"
)

func ExampleNormalize() {
	scopes, err := scope.Normalize([]string{"./src/app/", "src//app", "src/z", "x/../y"})
	fmt.Println(scopes, err)
	_, err = scope.Normalize([]string{"a/.."})
	fmt.Println(err)
	// Output:
	// [src/app src/z y] <nil>
	// invalid_path_scope: A path scope may not cover the whole repository or point outside it; name a directory or file inside it
}

func ExampleSet_Conflicts() {
	claimed := scope.NewSet([]string{"src/App", "docs"})
	candidate := scope.NewSet([]string{"src/app/main.go", "src/application"})
	fmt.Println(claimed.Conflicts(candidate))
	// Output: [[src/App src/app/main.go]]
}
