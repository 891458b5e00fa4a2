//! The page's files, embedded in the binary so that `damiera serve` needs no network and no
//! build step: `src/web/assets/` (index.html, app.js, style.css) and the bundled uPlot
//! (`src/web/assets/vendor/`, its version and checksums in `vendor/README.md`).

/// An embedded file: its URL path, its `Content-Type` and its bytes.
pub struct Asset {
    /// The path it is served at (`/`, `/assets/app.js`, ...).
    pub path: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its contents.
    pub bytes: &'static [u8],
}

/// Every file the server serves.
pub const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        bytes: include_bytes!("assets/index.html"),
    },
    Asset {
        path: "/assets/app.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("assets/app.js"),
    },
    Asset {
        path: "/assets/style.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("assets/style.css"),
    },
    Asset {
        path: "/assets/vendor/uPlot.iife.min.js",
        content_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("assets/vendor/uPlot.iife.min.js"),
    },
    Asset {
        path: "/assets/vendor/uPlot.min.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("assets/vendor/uPlot.min.css"),
    },
    Asset {
        path: "/assets/vendor/uPlot-LICENSE",
        content_type: "text/plain; charset=utf-8",
        bytes: include_bytes!("assets/vendor/uPlot-LICENSE"),
    },
];

/// The embedded file served at `path`, if any.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}
