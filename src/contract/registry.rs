//! The one registry type every environment lists its heuristics in, and the
//! one error for a name that is not there.
//!
//! An environment's registry is a `const` slice of [`Entry`]s: a CLI name, a
//! one-line summary and a payload `P` the environment knows how to run
//! (environment A: a constructor of a heuristic object; environment D: a
//! policy configuration). Adding a heuristic is one entry here plus its own
//! file.

/// One registered heuristic.
#[derive(Debug)]
pub struct Entry<P: 'static> {
    /// CLI name (lower case; looked up ignoring ASCII case).
    pub name: &'static str,
    /// One-line description, shown by `swftool heuristics`.
    pub summary: &'static str,
    /// What the environment needs to run it.
    pub policy: P,
}

/// The heuristics of one environment, in the order the listings and
/// figures use.
#[derive(Debug)]
pub struct Registry<P: 'static> {
    /// The environment's CLI name (`parallel`, `classic`), for error messages.
    pub env: &'static str,
    /// The entries.
    pub entries: &'static [Entry<P>],
}

// Manual impls: a registry is two references, copyable whatever `P` is.
impl<P> Clone for Registry<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for Registry<P> {}

/// A heuristic name that is not in the registry of the chosen environment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", unknown_name_message(self))]
pub struct UnknownName {
    /// The environment's CLI name.
    pub env: &'static str,
    /// The name given.
    pub name: String,
    /// The valid names, in registry order.
    pub valid: Vec<&'static str>,
    /// The other environments that have a heuristic of that name (filled
    /// in by [`crate::env::configs::locate`]).
    pub elsewhere: Vec<&'static str>,
}

fn unknown_name_message(u: &UnknownName) -> String {
    let valid = u.valid.join(", ");
    if u.name.is_empty() {
        return format!(
            "an empty heuristic name for --env {} (a comma too many in the list?); valid names: {valid}, or all",
            u.env
        );
    }
    let mut s = format!("unknown heuristic `{}` for --env {}", u.name, u.env);
    if !u.elsewhere.is_empty() {
        s.push_str(&format!(
            "; `{}` is a heuristic of --env {}",
            u.name,
            u.elsewhere.join(", --env ")
        ));
    } else {
        let lower = u.name.to_ascii_lowercase();
        if let Some((_, close)) = u
            .valid
            .iter()
            .map(|v| (strsim::damerau_levenshtein(&lower, v), *v))
            .filter(|(d, _)| *d <= 2)
            .min()
        {
            s.push_str(&format!(" (did you mean {close}?)"));
        }
    }
    s.push_str(&format!("; valid names: {valid}, or all"));
    s
}

/// An environment name that is not one of the environments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown environment `{name}`; environments: {}", valid.join(", "))]
pub struct UnknownEnv {
    /// The name given.
    pub name: String,
    /// The environments' names, in listing order.
    pub valid: Vec<&'static str>,
}

impl<P> Registry<P> {
    /// Every entry, in registry order.
    pub fn iter(&self) -> std::slice::Iter<'static, Entry<P>> {
        self.entries.iter()
    }

    /// Every name, in registry order.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// The entry named `name` (ASCII case ignored, surrounding blanks
    /// trimmed).
    ///
    /// # Errors
    /// [`UnknownName`] listing the valid names.
    pub fn get(&self, name: &str) -> Result<&'static Entry<P>, UnknownName> {
        let name = name.trim();
        self.entries
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownName {
                env: self.env,
                name: name.to_string(),
                valid: self.names(),
                elsewhere: Vec::new(),
            })
    }

    /// The entries named in `names`, `all` expanded to every entry (or to
    /// those `all_includes` accepts), duplicates removed, first occurrence
    /// kept.
    ///
    /// # Errors
    /// [`UnknownName`] for the first name not in the registry.
    pub fn resolve(
        &self,
        names: &[String],
        all_includes: impl Fn(&Entry<P>) -> bool,
    ) -> Result<Vec<&'static Entry<P>>, UnknownName> {
        let mut out: Vec<&'static Entry<P>> = Vec::new();
        for n in names {
            let add: Vec<&'static Entry<P>> = if n.trim().eq_ignore_ascii_case("all") {
                self.entries.iter().filter(|e| all_includes(e)).collect()
            } else {
                vec![self.get(n)?]
            };
            for e in add {
                if !out.iter().any(|x| x.name == e.name) {
                    out.push(e);
                }
            }
        }
        Ok(out)
    }
}

impl<P> IntoIterator for Registry<P> {
    type Item = &'static Entry<P>;
    type IntoIter = std::slice::Iter<'static, Entry<P>>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Registry<u8> = Registry {
        env: "test",
        entries: &[
            Entry {
                name: "a",
                summary: "first",
                policy: 1,
            },
            Entry {
                name: "b",
                summary: "second",
                policy: 2,
            },
            Entry {
                name: "c",
                summary: "third, not in all",
                policy: 3,
            },
        ],
    };

    #[test]
    fn names_are_found_ignoring_case_and_blanks() {
        assert_eq!(R.get(" B ").unwrap().policy, 2);
    }

    #[test]
    fn an_unknown_name_lists_the_environment_and_the_valid_names() {
        let e = R.get("d").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown heuristic `d` for --env test (did you mean a?); valid names: a, b, c, or all"
        );
    }

    #[test]
    fn all_expands_in_registry_order_and_duplicates_are_dropped() {
        let names: Vec<String> = ["b", "all", "a"].iter().map(|s| s.to_string()).collect();
        let got: Vec<&str> = R
            .resolve(&names, |e| e.name != "c")
            .unwrap()
            .iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(got, ["b", "a"]);
    }
}
