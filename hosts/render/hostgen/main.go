// Command hostgen writes the host-facing files of the plugin root
// (manifests, marketplaces, skills, docs/hosts.md) from the facts in
// hosts/. Run it from the repository root after changing those facts:
//
//	go run ./hosts/render/hostgen          rewrite the files
//	go run ./hosts/render/hostgen -check   list stale files, exit 1 if any
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/hosts/render"
)

func main() {
	check := flag.Bool("check", false, "only report files that differ; exit 1 if any does")
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "hostgen:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	files, err := render.Render()
	if err != nil {
		return err
	}
	stale := 0
	for _, f := range files {
		path := filepath.Join(root, filepath.FromSlash(f.Path))
		old, err := os.ReadFile(path)
		if err == nil && bytes.Equal(old, f.Data) {
			continue
		}
		stale++
		if check {
			fmt.Println("stale:", f.Path)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", f.Path)
	}
	if check && stale > 0 {
		return fmt.Errorf("%d generated files are stale; run go run ./hosts/render/hostgen", stale)
	}
	return nil
}
