//! `swjudge rule`.

use super::{CliResult, Ctx, Outcome};
use swjudge::render::rule::{RuleView, text};
use swjudge::rulebook::Corpus;
use swjudge::rulebook::lookup::{self, NotFound};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Section ID, e.g. swccg.ar.the-stack.
    #[arg(value_name = "ID")]
    pub id: String,
}

pub fn run(args: Args, ctx: &Ctx) -> CliResult {
    let corpus = Corpus::load(&ctx.paths.rulebook)?;
    let wanted = lookup::check_id(&args.id)?;
    let Some((section, via_alias)) = lookup::find(&corpus, wanted)? else {
        let nf = NotFound::new(&corpus, wanted);
        if ctx.json {
            super::out_json(&nf)?;
        } else {
            super::note(&nf.message);
        }
        return Ok(Outcome::NotFound);
    };
    if via_alias && !ctx.json {
        super::note(&format!("{wanted} is now {}", section.id));
    }
    let view = RuleView::new(&corpus, section);
    ctx.print(&view, |v| text(v, &ctx.style))?;
    Ok(Outcome::Found)
}
