//! Embeds every scenario under `scenarios/` so native, wasm and browser runners share them.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut names: Vec<String> = fs::read_dir(&root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.path().is_dir())
                .filter_map(|entry| entry.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut code = String::from(
        "/// Every scenario, sorted by name.\npub const SCENARIOS: &[Scenario] = &[\n",
    );
    for name in &names {
        let dir = root.join(name);
        println!("cargo:rerun-if-changed={}", dir.display());
        let input = ["input.yaml", "input.json", "input.bin"]
            .iter()
            .map(|file| dir.join(file))
            .find(|path| path.exists())
            .unwrap_or_else(|| {
                panic!("scenario {name} has no input.yaml, input.json or input.bin")
            });
        let expected = dir.join("expected.json");
        let _ = writeln!(
            code,
            "    Scenario {{ name: {name:?}, file: {file:?}, input: include_bytes!({input:?}), expected: {expected} }},",
            file = input.file_name().and_then(|f| f.to_str()).unwrap_or("input"),
            input = input.display().to_string(),
            expected = if expected.exists() {
                format!("Some(include_str!({:?}))", expected.display().to_string())
            } else {
                "None".into()
            },
        );
    }
    code.push_str("];\n");
    let out =
        Path::new(&env::var("OUT_DIR").expect("OUT_DIR is set by cargo")).join("scenarios.rs");
    fs::write(out, code).expect("OUT_DIR is writable");
}
