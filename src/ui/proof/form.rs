//! The Proof page's action form: continue the loaded derivation with one more action. The
//! formula is parsed as you type (the parser's message and column, the place marked), the
//! picked rule's premises and side conditions are shown from the rule table, every input has a
//! label. The page runs the action through the engine (`on_action`) and shows its verdict.

use leptos::prelude::*;

use crate::logic::document::catalogue_rules;
use crate::logic::events::ActionKind;
use crate::view::proof::form_help::action_params;
use crate::view::proof::form_help::parse_feedback;
use crate::view::proof::form_help::rule_requirements;
use crate::view::proof::form_help::HelpPart;
use crate::view::proof::form_help::ParseFeedback;

use super::bind::live;
use super::bind::set_to;
use super::bind::text_of;
use crate::ui::options::options;

/// Agent, action kind and params of the action to run; the page answers (accepted?, message).
pub type ActionRequest = (String, String, serde_json::Value);

fn feedback_view(kind: ActionKind, latex: &str) -> AnyView {
    if !matches!(
        kind,
        ActionKind::Derive | ActionKind::Extend | ActionKind::Assume
    ) {
        return ().into_any();
    }
    match parse_feedback(latex) {
        ParseFeedback::Empty => ().into_any(),
        ParseFeedback::Parses(reading) => view! {
            <p class="ok small" data-testid="proof-form-parse" id="proof-form-parse">{format!("parses as {reading}")}</p>
        }
        .into_any(),
        ParseFeedback::Error { column, message, before, after } => view! {
            <p class="error small" data-testid="proof-form-parse" id="proof-form-parse">
                {format!("does not parse, at character {column}: {message}")}<br/>
                <code>{before}<mark>"▸"</mark>{after}</code>
            </p>
        }
        .into_any(),
    }
}

fn help_view(rule: &str) -> AnyView {
    let Some((summary, parts)) = rule_requirements(rule) else {
        return ().into_any();
    };
    let parts = parts
        .into_iter()
        .map(|p| match p {
            HelpPart::Text(t) => view! { <span>{t}</span> }.into_any(),
            HelpPart::Formula(f) => view! { <code>{f}</code> }.into_any(),
        })
        .collect_view();
    view! {
        <div class="muted small rule-help" data-testid="proof-form-rule-help" id="proof-form-rule-help">
            <strong>{summary}</strong><br/>{parts}
        </div>
    }
    .into_any()
}

#[component]
pub fn ProofForm(
    agents: impl Fn() -> Vec<String> + Send + Sync + Copy + 'static,
    on_action: impl Fn(ActionRequest) -> (bool, String) + Copy + 'static,
) -> impl IntoView {
    let rules = catalogue_rules();
    let agent = RwSignal::new(String::new());
    let kind = RwSignal::new(ActionKind::default().as_str().to_string());
    // The picker offers only `ActionKind::ALL`'s names.
    let kind_of = move || ActionKind::from_name(&kind.get()).unwrap_or_default();
    let latex = RwSignal::new(String::new());
    let premises = RwSignal::new(String::new());
    let rule = RwSignal::new(rules.first().cloned().unwrap_or_default());
    let target = RwSignal::new(String::new());
    let result = RwSignal::new(None::<(bool, String)>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let k = kind.get_untracked();
        let params = action_params(
            ActionKind::from_name(&k).unwrap_or_default(),
            latex.get_untracked(),
            &premises.get_untracked(),
            &target.get_untracked(),
            rule.get_untracked(),
        );
        result.set(Some(on_action((agent.get_untracked(), k, params))));
    };
    let uses_rule = move || matches!(kind_of(), ActionKind::Derive | ActionKind::Extend);
    let formula_label = move || {
        String::from(match kind_of() {
            ActionKind::Derive => "Conclusion (LaTeX)",
            ActionKind::Extend => "Extension (LaTeX)",
            ActionKind::Assume => "Assumption (LaTeX)",
            ActionKind::Refute => "Reason",
            ActionKind::Accept => "Formula (not used by accept)",
        })
    };
    view! {
        <form class="card stack proof-form" data-testid="proof-form" on:submit=submit>
            <h3>"Add an action"</h3>
            <div class="row">
                <label>"Agent "
                    <select data-testid="proof-form-agent" on:change=set_to(agent)>
                        {live(move || options(agents()))}
                    </select>
                </label>
                <label>"Action "
                    <select data-testid="proof-form-kind" on:change=set_to(kind)>
                        {options(ActionKind::ALL.iter().map(|k| k.as_str().to_string()).collect())}
                    </select>
                </label>
                <label>"Rule "
                    <select data-testid="proof-form-rule" disabled=live(move || !uses_rule())
                        aria-describedby="proof-form-rule-help" on:change=set_to(rule)>
                        {options(rules)}
                    </select>
                </label>
            </div>
            {live(move || uses_rule().then(|| help_view(&rule.get())))}
            <label class="stack" for="proof-form-latex">{live(formula_label)}</label>
            <input id="proof-form-latex" data-testid="proof-form-latex" aria-describedby="proof-form-parse"
                prop:value=text_of(latex) on:input=set_to(latex)/>
            {live(move || feedback_view(kind_of(), &latex.get()))}
            <div class="row">
                <label class="stack">"Premises (ids, comma-separated)"
                    <input placeholder="H-1, C-002" data-testid="proof-form-premises"
                        prop:value=text_of(premises) on:input=set_to(premises)/>
                </label>
                <label class="stack">"Base (extend) / proposal (accept) / target (refute) id"
                    <input placeholder="C-001" data-testid="proof-form-target"
                        prop:value=text_of(target) on:input=set_to(target)/>
                </label>
                <button type="submit" class="primary" data-testid="proof-form-submit">"Submit"</button>
            </div>
            {live(move || result.get().map(|(ok, m)| view! { <p class=if ok { "ok" } else { "error" } data-testid="proof-form-result">{m}</p> }.into_any()))}
        </form>
    }
}
