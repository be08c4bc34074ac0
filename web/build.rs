//! Builds the example gallery from `web/examples/`: every `.yaml`, `.yml` or `.json` file
//! there becomes one example, in file-name order. Adding an example is adding a file.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("examples");
    println!("cargo::rerun-if-changed=examples");
    let mut files: Vec<String> = fs::read_dir(&dir)
        .expect("web/examples/ exists")
        .map(|entry| entry.expect("a readable directory entry").file_name())
        .filter_map(|name| name.into_string().ok())
        .filter(|name| {
            [".yaml", ".yml", ".json"]
                .iter()
                .any(|ext| name.ends_with(ext))
        })
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for file in &files {
        let path = dir.join(file);
        let path = path.to_str().expect("a UTF-8 path");
        writeln!(out, "    Example::new({file:?}, include_str!({path:?})),").expect("a String");
    }
    out.push_str("]\n");
    let target = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("examples.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}
