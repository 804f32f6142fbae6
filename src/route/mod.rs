//! Where the app is: which page a URL shows, under which base path the app is served.
//!
//! Pure (no `leptos`, no `web-sys`) so it is tested natively; `ui::router` feeds it the
//! browser's location. The app can be served at the root (`trunk serve`, `http://127.0.0.1:8080/`)
//! or under a sub-path of a static host (`https://user.github.io/verifyfast/`, built with
//! `trunk build --release --public-url /verifyfast/`). Every internal link and fetch is relative to
//! the document's `<base href>` (which Trunk sets to the public URL), and the router reads the page
//! from the part of the path below that base. Query strings and fragments are kept as they are.

pub mod state;

/// The pages the app has; unknown paths show `NotFound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Audit,
    Report,
    Compare,
    Extract,
    Proof,
    Settings,
    Runs,
    NotFound,
}

/// The navigable pages, in the order the top navigation shows them, with their one path segment.
/// The single source of a page's name in URLs.
pub const PAGES: [(Page, &str); 7] = [
    (Page::Audit, "audit"),
    (Page::Report, "report"),
    (Page::Compare, "compare"),
    (Page::Extract, "extract"),
    (Page::Proof, "proof"),
    (Page::Runs, "runs"),
    (Page::Settings, "settings"),
];

impl Page {
    /// The page for a path below the base (`/report`, `/report/`, `/`, `/index.html`).
    pub fn from_app_path(path: &str) -> Page {
        let segment = path.trim_matches('/');
        if segment.is_empty() || segment == "index.html" {
            return Page::Audit;
        }
        PAGES
            .iter()
            .find(|(_, name)| *name == segment)
            .map_or(Page::NotFound, |(page, _)| *page)
    }

    /// The link to this page, relative to the document's base (`report`): it resolves to
    /// `/report` at the root and to `/verifyfast/report` under `/verifyfast/`.
    pub fn href(self) -> &'static str {
        PAGES
            .iter()
            .find(|(page, _)| *page == self)
            .map_or("audit", |(_, name)| name)
    }

    /// What the browser tab says on this page.
    pub fn title(self) -> &'static str {
        match self {
            Page::Audit => "Audit · VerifyFast",
            Page::Report => "Report · VerifyFast",
            Page::Compare => "Compare · VerifyFast",
            Page::Extract => "Extract · VerifyFast",
            Page::Proof => "Proof · VerifyFast",
            Page::Settings => "Settings · VerifyFast",
            Page::Runs => "Runs · VerifyFast",
            Page::NotFound => "Page not found · VerifyFast",
        }
    }
}

/// The directory part of the document's base URL's path: `/verifyfast/` for a base of
/// `https://host/verifyfast/` (or `…/verifyfast/index.html`), `/` at the root.
pub fn base_path(base_url_path: &str) -> &str {
    match base_url_path.rfind('/') {
        Some(slash) => &base_url_path[..=slash],
        None => "/",
    }
}

/// The part of `pathname` below `base` (always starting with `/`), or `None` when the path is
/// outside the app (a link to another site section on the same host is not ours to route).
pub fn app_path<'a>(base: &str, pathname: &'a str) -> Option<&'a str> {
    let base_dir = base.trim_end_matches('/');
    let rest = pathname.strip_prefix(base_dir)?;
    if rest.is_empty() {
        return Some("/");
    }
    rest.starts_with('/').then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_by_path() {
        assert_eq!(Page::from_app_path("/"), Page::Audit);
        assert_eq!(Page::from_app_path(""), Page::Audit);
        assert_eq!(Page::from_app_path("/index.html"), Page::Audit);
        assert_eq!(Page::from_app_path("/audit"), Page::Audit);
        assert_eq!(Page::from_app_path("/report/"), Page::Report);
        assert_eq!(Page::from_app_path("/proof"), Page::Proof);
        assert_eq!(Page::from_app_path("/settings"), Page::Settings);
        assert_eq!(Page::from_app_path("/extract"), Page::Extract);
        assert_eq!(Page::from_app_path("/runs"), Page::Runs);
        assert_eq!(Page::from_app_path("/nope"), Page::NotFound);
        assert_eq!(Page::from_app_path("/report/x"), Page::NotFound);
    }

    #[test]
    fn every_page_links_to_itself() {
        for (page, _) in PAGES {
            assert_eq!(Page::from_app_path(&format!("/{}", page.href())), page);
        }
    }

    #[test]
    fn base_paths() {
        assert_eq!(base_path("/"), "/");
        assert_eq!(base_path("/verifyfast/"), "/verifyfast/");
        assert_eq!(base_path("/verifyfast/index.html"), "/verifyfast/");
        assert_eq!(base_path(""), "/");
    }

    #[test]
    fn paths_below_the_base() {
        assert_eq!(app_path("/", "/report"), Some("/report"));
        assert_eq!(app_path("/", "/"), Some("/"));
        assert_eq!(
            app_path("/verifyfast/", "/verifyfast/report"),
            Some("/report")
        );
        assert_eq!(app_path("/verifyfast/", "/verifyfast/"), Some("/"));
        assert_eq!(app_path("/verifyfast/", "/verifyfast"), Some("/"));
        assert_eq!(app_path("/verifyfast/", "/verifyfastx/report"), None);
        assert_eq!(app_path("/verifyfast/", "/report"), None);
        assert_eq!(
            Page::from_app_path(app_path("/a/b/", "/a/b/proof").unwrap_or("")),
            Page::Proof
        );
    }
}
