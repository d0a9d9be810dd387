package codex

import "github.com/agenttool/collab/hosts/plugin"

// Marketplace is .agents/plugins/marketplace.json.
type Marketplace struct {
	Name      string       `json:"name"`
	Interface MarketFace   `json:"interface"`
	Plugins   []MarketItem `json:"plugins"`
}

// MarketFace is the marketplace's display text.
type MarketFace struct {
	DisplayName string `json:"displayName"`
}

// MarketItem lists one plugin; Source is a LocalSource or an NPMSource.
type MarketItem struct {
	Name     string       `json:"name"`
	Source   any          `json:"source"`
	Policy   MarketPolicy `json:"policy"`
	Category string       `json:"category"`
}

// MarketPolicy says how Codex offers the plugin.
type MarketPolicy struct {
	Installation   string `json:"installation"`
	Authentication string `json:"authentication"`
}

// LocalSource is a plugin folder relative to the marketplace root.
type LocalSource struct {
	Source string `json:"source"`
	Path   string `json:"path"`
}

// NPMSource installs the plugin from the npm registry.
type NPMSource struct {
	Source  string `json:"source"`
	Package string `json:"package"`
	Version string `json:"version"`
}

// RepoMarketplace is the marketplace at the repository root; the checkout
// has no binaries, so it installs the published npm package.
func RepoMarketplace() Marketplace {
	return marketplace(NPMSource{Source: "npm", Package: plugin.NPMPackage, Version: plugin.Version})
}

// PackageMarketplace is the marketplace inside the npm package, whose root
// is the plugin itself: `codex plugin marketplace add <package dir>`.
func PackageMarketplace() Marketplace {
	return marketplace(LocalSource{Source: "local", Path: "./"})
}

func marketplace(source any) Marketplace {
	return Marketplace{
		Name:      plugin.Marketplace,
		Interface: MarketFace{DisplayName: plugin.DisplayName},
		Plugins: []MarketItem{{
			Name:     plugin.Name,
			Source:   source,
			Policy:   MarketPolicy{Installation: "AVAILABLE", Authentication: "ON_INSTALL"},
			Category: "Coding",
		}},
	}
}
