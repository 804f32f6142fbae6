//! KaTeX binding (browser only).
