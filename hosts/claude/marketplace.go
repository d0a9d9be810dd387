package claude

import "github.com/agenttool/collab/hosts/plugin"

// Marketplace is .claude-plugin/marketplace.json.
type Marketplace struct {
	Name     string       `json:"name"`
	Owner    Person       `json:"owner"`
	Metadata MarketMeta   `json:"metadata"`
	Plugins  []MarketItem `json:"plugins"`
}

// MarketMeta describes the marketplace itself.
type MarketMeta struct {
	Description string `json:"description"`
	Version     string `json:"version"`
}

// MarketItem lists one plugin. Source is either a path relative to the
// marketplace root (a string) or an NPMSource.
type MarketItem struct {
	Name        string   `json:"name"`
	Source      any      `json:"source"`
	Description string   `json:"description"`
	Version     string   `json:"version"`
	Category    string   `json:"category"`
	Homepage    string   `json:"homepage"`
	License     string   `json:"license"`
	Keywords    []string `json:"keywords"`
}

// NPMSource installs the plugin from the npm registry.
type NPMSource struct {
	Source  string `json:"source"`
	Package string `json:"package"`
	Version string `json:"version"`
}

// RepoMarketplace is the marketplace at the repository root: the checkout
// carries no binaries, so it installs the published npm package, whose
// root is the plugin root. `claude plugin marketplace add agenttool/collab`
// reads it.
func RepoMarketplace() Marketplace {
	return marketplace(NPMSource{Source: "npm", Package: plugin.NPMPackage, Version: plugin.Version})
}

// PackageMarketplace is the marketplace inside the npm package: the package
// root is the plugin itself, so `claude plugin marketplace add <package
// dir>` runs the plugin from that folder.
func PackageMarketplace() Marketplace {
	return marketplace("./")
}

func marketplace(source any) Marketplace {
	return Marketplace{
		Name:     plugin.Marketplace,
		Owner:    Person{Name: plugin.Author, URL: plugin.Repository},
		Metadata: MarketMeta{Description: plugin.MarketplaceDescription, Version: plugin.Version},
		Plugins: []MarketItem{{
			Name:        plugin.Name,
			Source:      source,
			Description: plugin.Description,
			Version:     plugin.Version,
			Category:    "development",
			Homepage:    plugin.Repository,
			License:     plugin.License,
			Keywords:    plugin.Keywords(),
		}},
	}
}
