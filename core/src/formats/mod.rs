//! Every tool-call dialect the engine knows.
//!
//! A format is one module named after its id, exporting one descriptor
//! ([`Format`]): its catalogue entry, its openers (literal markers plus a
//! probe that decides whether a marker really begins at a position), the
//! [`BlockFormat`] that finds where its block ends and parses it, the other
//! names `--format` takes for it, how its values are typed and how its
//! prompts are rendered. The list below is the registry: adding a format is
//! adding its module and one line here. `toolcall formats`, detection,
//! `render`, `validate`, completions and docs all read [`FORMATS`].
//!
//! What formats share lives in `shared`; openers that belong to no format
//! (reasoning tags, code fences, end-of-turn tokens, other roles' turns) in
//! `reasoning`, `fenced`, `markup` and `turns`.

mod api;
pub(crate) mod id;
pub(crate) mod markup;
pub mod model_name;
pub(crate) mod reasoning;
pub mod registry;
pub(crate) mod turns;

pub(crate) mod shared;

pub use api::*;
pub use registry::probe;
pub use shared::json::{calls_from_json_body, early_json_name, split_array_ends};
pub use shared::section::typed_value;
pub use shared::tag::probe_wrapper;

/// Declares the format modules, their ids ([`ids`]) and [`FORMATS`], in the
/// order `toolcall formats` lists them.
macro_rules! registry {
    ($($module:ident: $konst:ident = $id:literal,)*) => {
        $(pub(crate) mod $module;)*

        /// The id of every format.
        pub mod ids {
            use super::FormatId;
            $(
                #[doc = concat!("`", $id, "`")]
                pub const $konst: FormatId = FormatId::new($id);
            )*
        }

        /// Every format, in the order `toolcall formats` lists them.
        pub static FORMATS: &[&Format] = &[$(&$module::FORMAT),*];
    };
}

registry! {
    hermes: HERMES = "hermes",
    qwen3_coder_xml: QWEN3_CODER_XML = "qwen3-coder-xml",
    glm4_moe: GLM4_MOE = "glm4-moe",
    functionary: FUNCTIONARY = "functionary",
    fenced_tool_call: FENCED_TOOL_CALL = "fenced-tool-call",
    fenced_json: FENCED_JSON = "fenced-json",
    bare_json: BARE_JSON = "bare-json",
    llama3_json: LLAMA3_JSON = "llama3-json",
    xlam: XLAM = "xlam",
    granite: GRANITE = "granite",
    cohere: COHERE = "cohere",
    internlm: INTERNLM = "internlm",
    jamba: JAMBA = "jamba",
    minimax: MINIMAX = "minimax",
    minimax_m2: MINIMAX_M2 = "minimax-m2",
    minimax_m3: MINIMAX_M3 = "minimax-m3",
    seed_oss: SEED_OSS = "seed-oss",
    longcat: LONGCAT = "longcat",
    nemotron_toolcall: NEMOTRON_TOOLCALL = "nemotron-toolcall",
    inkling: INKLING = "inkling",
    hunyuan_v4: HUNYUAN_V4 = "hunyuan-v4",
    ernie45: ERNIE45 = "ernie45",
    mistral: MISTRAL = "mistral",
    deepseek_v3: DEEPSEEK_V3 = "deepseek-v3",
    deepseek_v3_1: DEEPSEEK_V3_1 = "deepseek-v3.1",
    deepseek_dsml: DEEPSEEK_DSML = "deepseek-dsml",
    kimi_k2: KIMI_K2 = "kimi-k2",
    kimi_k3: KIMI_K3 = "kimi-k3",
    step3: STEP3 = "step3",
    harmony: HARMONY = "harmony",
    pythonic: PYTHONIC = "pythonic",
    lfm2: LFM2 = "lfm2",
    olmo3: OLMO3 = "olmo3",
    llama_python_tag: LLAMA_PYTHON_TAG = "llama-python-tag",
    phi4_mini: PHI4_MINI = "phi4-mini",
    functionary_v3_2: FUNCTIONARY_V3_2 = "functionary-v3.2",
    gemini_function_call: GEMINI_FUNCTION_CALL = "gemini-function-call",
    sarashina: SARASHINA = "sarashina",
    apertus: APERTUS = "apertus",
    gigachat3: GIGACHAT3 = "gigachat3",
    minicpm5: MINICPM5 = "minicpm5",
    solar_open: SOLAR_OPEN = "solar-open",
    plamo3: PLAMO3 = "plamo3",
    iquest: IQUEST = "iquest",
    dots: DOTS = "dots",
    k2_v3: K2_V3 = "k2-v3",
    glm53_flash: GLM53_FLASH = "glm53-flash",
    muse_glimmer: MUSE_GLIMMER = "muse-glimmer",
    prompt_wrapper: PROMPT_WRAPPER = "prompt-wrapper",
}

/// Code fences: text in which no markers are looked for, or a fenced call.
pub(crate) mod fenced;

/// Openers that belong to no format: always on, whatever `--format` says.
static STRUCTURAL: &[&[Opener]] = &[
    turns::OPENERS,
    reasoning::OPENERS,
    fenced::OPENERS,
    markup::OPENERS,
];

#[cfg(test)]
mod layers {
    use std::path::{Path, PathBuf};

    fn dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/formats")
    }

    /// The modules directly under `formats/` (formats and structural
    /// openers), by file stem.
    fn modules() -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(dir())
            .expect("formats/ is readable")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix(".rs").map(str::to_string))
            .filter(|n| !["mod", "api", "id", "registry"].contains(&n.as_str()))
            .collect();
        out.sort();
        out
    }

    /// Where `src` names module `m` as `super::m` or `formats::m` (in
    /// code or in a doc link).
    fn names(src: &str, m: &str) -> bool {
        ["super::", "formats::"].iter().any(|p| {
            let pat = format!("{p}{m}");
            src.match_indices(&pat).any(|(at, _)| {
                let after = src.as_bytes().get(at + pat.len()).copied();
                !after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
        })
    }

    #[test]
    fn every_registered_format_has_its_module_file() {
        let mods = modules();
        for f in super::FORMATS {
            let m = f.id.as_str().replace(['-', '.'], "_");
            assert!(mods.contains(&m), "no formats/{m}.rs for {}", f.id);
        }
    }

    #[test]
    fn no_format_module_names_a_sibling() {
        let mods = modules();
        let mut bad = Vec::new();
        for me in &mods {
            let src = std::fs::read_to_string(dir().join(format!("{me}.rs"))).expect("readable");
            for other in mods.iter().filter(|o| *o != me) {
                if names(&src, other) {
                    bad.push(format!("{me} -> {other}"));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "format modules naming a sibling (share through formats/shared): {bad:?}"
        );
    }

    #[test]
    fn shared_names_no_format_module() {
        let mods = modules();
        let mut stack = vec![dir().join("shared")];
        let mut bad = Vec::new();
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).expect("readable").flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                let src = std::fs::read_to_string(&p).expect("readable");
                for m in mods.iter().filter(|m| names(&src, m)) {
                    bad.push(format!("{} -> {m}", p.display()));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "shared code naming a format module: {bad:?}"
        );
    }

    #[test]
    fn the_check_sees_a_sibling() {
        assert!(names("use super::hermes::X;", "hermes"));
        assert!(names("[x](crate::formats::hermes)", "hermes"));
        assert!(!names("use super::hermes_like::X;", "hermes"));
        assert!(!names("use super::shared::hermes;", "hermes"));
    }
}
