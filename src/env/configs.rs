//! Experiment configurations of every environment, reached through the
//! environment list ([`super::visit`]): the built-in presets, reading a
//! configuration and checking it against its environment's own keys, and
//! writing one back as commented TOML. Nothing here names an environment.

use std::path::Path;

use super::{default_name, visit, visit_all};
use crate::contract::UnknownName;
use crate::env::GridVisitor;
use crate::experiment::config::{ConfigError, ExperimentConfig};
use crate::experiment::grid::{self, Grid, Preset};
use crate::workload::flags::config_key_of;

struct Presets;

impl GridVisitor for Presets {
    type Output = Vec<(&'static str, Preset)>;
    fn visit<E: Grid>(self) -> Self::Output {
        E::presets()
    }
}

/// Every environment's presets (name, what it runs and its grid), in
/// environment order.
pub fn presets() -> Vec<(&'static str, Preset)> {
    visit_all(|| Presets).into_iter().flatten().collect()
}

/// The names of every preset, in environment order.
pub fn preset_names() -> Vec<&'static str> {
    presets().into_iter().map(|(n, _)| n).collect()
}

/// The built-in preset `name`.
///
/// # Errors
/// [`ConfigError::UnknownPreset`] listing the presets.
pub fn preset(name: &str) -> Result<ExperimentConfig, ConfigError> {
    let all = presets();
    let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
    all.into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, p)| p.config)
        .ok_or_else(|| ConfigError::UnknownPreset {
            name: name.to_string(),
            presets: names.join(", "),
        })
}

/// What [`check_config`] reads of every environment: its name, title, the
/// shared flags it takes and its own keys.
struct Keys;

impl GridVisitor for Keys {
    type Output = (
        &'static str,
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
    );
    fn visit<E: Grid>(self) -> Self::Output {
        (E::NAME, E::TITLE, E::SHARED, E::SECTION_KEYS)
    }
}

/// Refuses a key of `config` that `env` does not take but another
/// environment does, naming the environments it belongs to.
fn refuse_foreign_keys(config: &ExperimentConfig, env: &str) -> Result<(), ConfigError> {
    let all = visit_all(|| Keys);
    let Some(&(_, title, shared, own)) = all.iter().find(|k| k.0 == env) else {
        return Ok(());
    };
    let foreign = |key: &'static str, owners: Vec<&str>| ConfigError::Invalid {
        path: config.origin().to_path_buf(),
        key,
        message: format!(
            "`{key}` does not apply to environment = \"{env}\" ({title}); it belongs to environment = {}",
            owners
                .iter()
                .map(|o| format!("\"{o}\""))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    };
    for (key, set) in config.shared_keys_given() {
        let flag = if key == "dates" { "days" } else { key };
        let takes = |s: &[&str]| s.iter().any(|f| config_key_of(f) == Some(flag));
        if set && !takes(shared) {
            let owners = all.iter().filter(|k| takes(k.2)).map(|k| k.0).collect();
            return Err(foreign(key, owners));
        }
    }
    for key in config.section.keys() {
        if own.contains(&key.as_str()) {
            continue;
        }
        let owners: Vec<&str> = all
            .iter()
            .filter(|k| k.3.contains(&key.as_str()))
            .map(|k| k.0)
            .collect();
        if let Some(k) = all.iter().flat_map(|k| k.3.iter()).find(|k| **k == key) {
            return Err(foreign(k, owners));
        }
    }
    Ok(())
}

struct Names;

impl GridVisitor for Names {
    type Output = (&'static str, Vec<&'static str>);
    fn visit<E: Grid>(self) -> Self::Output {
        (E::NAME, E::REGISTRY.names())
    }
}

/// `u` with the other environments that have a heuristic of its name
/// (`-H fcfs` with `--env parallel`: "`fcfs` is a heuristic of --env
/// serial, --env energy, --env classic").
pub fn locate(mut u: UnknownName) -> UnknownName {
    u.elsewhere = visit_all(|| Names)
        .into_iter()
        .filter(|(env, names)| {
            *env != u.env && names.iter().any(|n| n.eq_ignore_ascii_case(&u.name))
        })
        .map(|(env, _)| env)
        .collect();
    u
}

struct Check<'a>(&'a ExperimentConfig);

impl GridVisitor for Check<'_> {
    type Output = Result<(), ConfigError>;
    fn visit<E: Grid>(self) -> Self::Output {
        grid::check::<E>(self.0).map(|_| ())
    }
}

/// Checks `config` against its environment: the environment's name, the
/// shared keys it takes, its own keys (each named with its line when the
/// configuration was read from text) and what it checks of them.
///
/// # Errors
/// [`ConfigError`] naming the file and the key.
pub fn check_config(config: &ExperimentConfig) -> Result<(), ConfigError> {
    refuse_foreign_keys(config, config.environment_name())?;
    visit(config.environment_name(), Check(config)).map_err(|source| ConfigError::Environment {
        path: config.origin().to_path_buf(),
        source,
    })?
}

/// Parses a TOML configuration (`origin` names it in errors), fills in the
/// default environment when it names none, and checks it
/// ([`check_config`]).
///
/// # Errors
/// [`ConfigError`] naming the file, the line where known, and the key.
pub fn config_from_toml(text: &str, origin: &Path) -> Result<ExperimentConfig, ConfigError> {
    let mut config = ExperimentConfig::from_toml(text, origin)?;
    if config.environment.is_empty() {
        config.environment = default_name().to_string();
    }
    check_config(&config)?;
    Ok(config)
}

/// Reads a TOML configuration file ([`config_from_toml`]).
///
/// # Errors
/// The file cannot be read, or as [`config_from_toml`].
pub fn config_from_file(path: &Path) -> Result<ExperimentConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    config_from_toml(&text, path)
}

struct Help;

impl GridVisitor for Help {
    type Output = &'static str;
    fn visit<E: Grid>(self) -> &'static str {
        E::SECTION_HELP
    }
}

/// `config` as TOML with a commented header explaining the common keys and
/// its environment's own; it parses back to an equal configuration.
///
/// # Errors
/// Only if serialisation fails (it does not for valid configurations).
pub fn config_toml(config: &ExperimentConfig) -> Result<String, toml::ser::Error> {
    let name = if config.environment.is_empty() {
        default_name()
    } else {
        config.environment.as_str()
    };
    let help = visit(name, Help).unwrap_or("");
    config.to_toml(help)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::classic::grid::ClassicSection;
    use crate::env::parallel::grid::ParallelSection;

    fn variants(c: &ExperimentConfig) -> Vec<crate::env::parallel::grid::variant::Variant> {
        c.section::<ParallelSection>().unwrap().variant_list()
    }

    #[test]
    fn the_standard_axes_give_seven_distinct_variants() {
        let v = variants(&preset("khemka2015-parallel").unwrap());
        assert_eq!(v.len(), 7);
        assert_eq!(v.iter().filter(|x| x.is_default()).count(), 1);
        assert_eq!(v[0].label(), "oversubscription=lower");
        assert_eq!(v[1].label(), "default");
    }

    #[test]
    fn explicit_variants_are_deduplicated_against_the_axes() {
        let text = r#"
name = "x"
logs = ["kth-sp2"]
heuristics = ["easy"]
axes = ["correlation"]
[[variants]]
correlation = "none"
[[variants]]
oversubscription = "higher"
heterogeneity = "high"
"#;
        let c = config_from_toml(text, Path::new("x.toml")).unwrap();
        assert_eq!(
            c.environment, "parallel",
            "the default environment is filled in"
        );
        let v = variants(&c);
        assert_eq!(v.len(), 4);
        assert_eq!(v[3].label(), "oversubscription=higher,heterogeneity=high");
    }

    #[test]
    fn a_bad_key_names_the_file_line_and_key() {
        let text = "name = \"x\"\nlogs = [\"curie\"]\nheuristics = [\"easy\"]\nday = 3\n";
        let e = config_from_toml(text, Path::new("grid.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("grid.toml"), "{e}");
        assert!(e.contains("line 4"), "{e}");
        assert!(e.contains("day"), "{e}");
    }

    #[test]
    fn a_bad_level_names_the_line() {
        let text = "name = \"x\"\nlogs = [\"curie\"]\nheuristics = [\"easy\"]\n[[variants]]\ncorrelation = \"strong\"\n";
        let e = config_from_toml(text, Path::new("grid.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 5"), "{e}");
        assert!(e.contains("strong"), "{e}");
    }

    #[test]
    fn an_unknown_heuristic_or_environment_lists_the_valid_ones() {
        let text = "name = \"x\"\nlogs = [\"curie\"]\nheuristics = [\"maxvalu\"]\n";
        let e = config_from_toml(text, Path::new("grid.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown heuristic `maxvalu`"), "{e}");
        assert!(e.contains("maxvpr-ph"), "{e}");
        let text = "name = \"x\"\nenvironment = \"quantum\"\nheuristics = [\"easy\"]\n";
        let e = config_from_toml(text, Path::new("grid.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("key `environment`"), "{e}");
        assert!(e.contains("parallel, serial, energy, classic"), "{e}");
    }

    #[test]
    fn a_classic_grid_parses_with_depth_all_and_refuses_keys_of_other_environments() {
        let text = "name = \"x\"\nenvironment = \"classic\"\nlogs = [\"kth-sp2\"]\nheuristics = [\"backfill\"]\n[classic]\nreservation_depth = \"all\"\nexact_estimates = true\n";
        let c = config_from_toml(text, Path::new("d.toml")).unwrap();
        let s: ClassicSection = c.section().unwrap();
        assert_eq!(s.classic.reservation_depth, Some(usize::MAX));
        let back = config_from_toml(&config_toml(&c).unwrap(), Path::new("d.toml")).unwrap();
        assert_eq!(c, back);
        // A shared key the environment does not take, and another
        // environment's own key: each named with the environments it
        // belongs to.
        let e = config_from_toml(
            &text.replace("[classic]", "days = 3\n[classic]"),
            Path::new("d.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("`days` does not apply to environment = \"classic\"")
                && e.contains("it belongs to environment = \"parallel\" or \"serial\""),
            "{e}"
        );
        let e = config_from_toml(
            "name = \"x\"\nlogs = [\"kth-sp2\"]\nheuristics = [\"easy\"]\n[classic]\ntau = 5.0\n",
            Path::new("a.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("`classic` does not apply to environment = \"parallel\"")
                && e.contains("it belongs to environment = \"classic\""),
            "{e}"
        );
        // A key of no environment: the parser's refusal, with its line.
        let e = config_from_toml(&format!("{text}bogus = 1\n"), Path::new("d.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("line ") && e.contains("bogus"), "{e}");
    }

    #[test]
    fn presets_round_trip_through_toml() {
        let names = preset_names();
        assert_eq!(names.len(), 8, "{names:?}");
        for p in names {
            let c = preset(p).unwrap();
            check_config(&c).unwrap_or_else(|e| panic!("{p}: {e}"));
            let text = config_toml(&c).unwrap();
            let back = config_from_toml(&text, Path::new("dump.toml")).unwrap();
            assert_eq!(c, back, "{text}");
        }
        let e = preset("nope").unwrap_err().to_string();
        assert!(
            e.contains("unknown preset `nope`") && e.contains("smoke-energy"),
            "{e}"
        );
    }
}
