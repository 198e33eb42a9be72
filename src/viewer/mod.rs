//! The replay page of a log (`pnpkit log --html`): one self-contained HTML
//! file (inline style and script, the replay as embedded JSON, nothing
//! loaded from anywhere) with the board drawn from the pack after every
//! action, the state the engine shows (hands, resources, scores), a
//! timeline to step through, each action's rule, the first illegal action
//! highlighted with its message, and the log's checkpoints marked.
//! `page.html#step=37` opens at a step; without it the page opens at the
//! first illegal action (or the start).

pub mod board;

use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::markup::html_escape as esc;
use crate::model::Game;
use crate::rules::log::{Item, Log};
use crate::rules::replay::{FailureKind, flow};
use crate::rules::{Replay, replay::TraceStep};

/// One position of the timeline.
#[derive(Clone, Debug, Serialize)]
struct Step {
    /// `setup`, `action`, `end` (of a turn), `illegal`, `unplayed`, `result`.
    kind: &'static str,
    turn: Option<usize>,
    player: Option<String>,
    action: Option<usize>,
    /// The action as the log writes it.
    text: String,
    rule: Option<String>,
    rule_title: Option<String>,
    state: Json,
    tokens: Vec<board::Token>,
    /// A checkpoint (`expect:`) checked right after this step.
    checkpoint: Option<Json>,
}

/// The replay of `log` as a page. `rules` maps each `do:` to its rule.
pub fn page(game: &Game, file: &str, log: &Log, replay: &Replay, rules: &[(&str, &str)]) -> String {
    let mut states: Vec<&Json> = vec![&replay.initial];
    states.extend(replay.trace.iter().map(|t| &t.state));
    let board = board::board(game, &log.header, &states);
    let players = &replay.players;
    let title_of = |r: &str| game.reference.section_title(r, "en");
    let cite = |done: &Json| -> (Option<String>, Option<String>) {
        let d = done.get("do").and_then(Json::as_str).unwrap_or("");
        match rules.iter().find(|(k, _)| *k == d) {
            Some((_, r)) => (Some((*r).to_owned()), title_of(r)),
            None => (None, None),
        }
    };
    let tokens = |state: &Json| {
        board
            .as_ref()
            .map(|b| board::tokens(b, state, players, &log.header))
            .unwrap_or_default()
    };
    let failure = replay.failure.as_ref();
    let mut steps: Vec<Step> = Vec::new();
    let setup_failed = failure.is_some_and(|f| f.kind == FailureKind::Illegal && f.turn.is_none());
    steps.push(Step {
        kind: if setup_failed { "illegal" } else { "setup" },
        turn: None,
        player: None,
        action: None,
        text: "setup".into(),
        rule: None,
        rule_title: None,
        tokens: tokens(&replay.initial),
        state: replay.initial.clone(),
        checkpoint: None,
    });
    let traced = |t: usize, a: Option<usize>| -> Option<&TraceStep> {
        replay.trace.iter().find(|s| s.turn == t && s.action == a)
    };
    let mut failed_at: Option<usize> = setup_failed.then_some(0);
    let mut last_state = replay.initial.clone();
    for (ti, turn) in log.turns.iter().enumerate() {
        let t = ti + 1;
        for (ai, item) in turn.items.iter().enumerate() {
            let a = ai + 1;
            match item {
                Item::Action(it) => {
                    let value = it.value();
                    let (rule, rule_title) = cite(&value);
                    let here = failure.is_some_and(|f| f.turn == Some(t) && f.action == Some(a));
                    let (kind, state) = match traced(t, Some(a)) {
                        Some(s) => ("action", s.state.clone()),
                        None if here && failed_at.is_none() => ("illegal", last_state.clone()),
                        None => ("unplayed", last_state.clone()),
                    };
                    if kind == "illegal" {
                        failed_at = Some(steps.len());
                    }
                    last_state = state.clone();
                    steps.push(Step {
                        kind,
                        turn: Some(t),
                        player: Some(turn.player.clone()),
                        action: Some(a),
                        text: flow(&value),
                        rule,
                        rule_title,
                        tokens: tokens(&state),
                        state,
                        checkpoint: None,
                    });
                }
                Item::Expect(cp) => {
                    let bad = failure
                        .is_some_and(|f| f.kind == FailureKind::Checkpoint && f.turn == Some(t) && f.action == Some(a));
                    if bad && failed_at.is_none() {
                        failed_at = Some(steps.len() - 1);
                    }
                    if let Some(s) = steps.last_mut() {
                        s.checkpoint = Some(json!({"ok": !bad && s.kind != "unplayed", "expect": flow(&cp.value)}));
                    }
                }
            }
        }
        // The end of the turn: traced, refused, or never reached.
        let here = failure.is_some_and(|f| f.turn == Some(t) && f.action.is_none() && f.kind == FailureKind::Illegal);
        let (kind, state, text) = match traced(t, None) {
            Some(s) => ("end", s.state.clone(), flow(&s.done)),
            None if here && failed_at.is_none() => ("illegal", last_state.clone(), "end of the turn".to_owned()),
            None => ("unplayed", last_state.clone(), "end of the turn".to_owned()),
        };
        if kind == "illegal" {
            failed_at = Some(steps.len());
        }
        let done = json!({"do": "end-turn"});
        let (rule, rule_title) = cite(&done);
        last_state = state.clone();
        let cp = turn.expect.as_ref().map(|cp| {
            let bad =
                failure.is_some_and(|f| f.kind == FailureKind::Checkpoint && f.turn == Some(t) && f.action.is_none());
            json!({"ok": !bad && kind != "unplayed", "expect": flow(&cp.value)})
        });
        if cp.as_ref().is_some_and(|c| c["ok"] == false) && failed_at.is_none() {
            failed_at = Some(steps.len());
        }
        steps.push(Step {
            kind,
            turn: Some(t),
            player: Some(turn.player.clone()),
            action: None,
            text,
            rule,
            rule_title,
            tokens: tokens(&state),
            state,
            checkpoint: cp,
        });
    }
    if let Some(f) = failure.filter(|f| f.kind == FailureKind::Result) {
        failed_at = Some(steps.len());
        steps.push(Step {
            kind: "illegal",
            turn: None,
            player: None,
            action: None,
            text: "result".into(),
            rule: f.rule.map(str::to_owned),
            rule_title: f.rule.and_then(title_of),
            tokens: tokens(&replay.final_state),
            state: replay.final_state.clone(),
            checkpoint: None,
        });
    }
    let verdict = match failure {
        None => "legal".to_owned(),
        Some(f) => match f.kind {
            FailureKind::Illegal => format!("illegal ({})", f.rule.unwrap_or("?")),
            FailureKind::Checkpoint => "checkpoint mismatch".into(),
            FailureKind::Result => "result mismatch".into(),
        },
    };
    let data = json!({
        "game": game.name.get("en"),
        "file": file,
        "players": players,
        "verdict": verdict,
        "ending": replay.ending,
        "board": board,
        "steps": steps,
        "failure": failure.map(|f| json!({
            "step": failed_at,
            "rule": f.rule,
            "title": f.rule.and_then(title_of),
            "message": f.message,
            "expected": f.expected,
            "found": f.found,
            "alternatives": f.alternatives.iter().map(flow).collect::<Vec<_>>(),
        })),
    });
    // `</` never appears inside the script: the JSON is read back whole.
    let json = serde_json::to_string(&data).unwrap_or_default().replace("</", "<\\/");
    let title = format!("{} — {}", game.name.get("en"), file);
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>{}</title><style>{STYLE}</style></head><body>\
<header><h1>{}</h1><p id=\"summary\"></p></header>\
<nav id=\"controls\"><button id=\"first\" title=\"Start (Home)\">|◀</button><button id=\"prev\" title=\"Previous (←)\">◀</button><input id=\"slider\" type=\"range\" min=\"0\" value=\"0\"><button id=\"next\" title=\"Next (→)\">▶</button><button id=\"last\" title=\"End (End)\">▶|</button><span id=\"pos\"></span></nav>\
<main><section id=\"stage\"><svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\"></svg><p id=\"noboard\" hidden>The pack has no board with positions for this game.</p></section>\
<aside id=\"panel\"><div id=\"now\"></div><div id=\"problem\" hidden></div><table id=\"state\"></table></aside></main>\
<ol id=\"timeline\"></ol><script id=\"data\" type=\"application/json\">{json}</script><script>{SCRIPT}</script></body></html>\n",
        esc(&title),
        esc(&title),
    )
}

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}\
header{padding:10px 16px;background:#263238;color:#fff}h1{font-size:18px;margin:0}#summary{margin:4px 0 0;color:#cfd8dc}\
#controls{display:flex;gap:6px;align-items:center;padding:8px 16px;background:#eceff1;position:sticky;top:0;z-index:2}\
#controls button{font-size:16px;padding:2px 10px}#slider{flex:1}#pos{min-width:11em;text-align:right;font-variant-numeric:tabular-nums}\
main{display:flex;gap:12px;padding:12px 16px;align-items:flex-start}#stage{flex:3;min-width:0}#board{width:100%;height:auto;background:#fff;border:1px solid #cfd8dc}\
#panel{flex:2;min-width:260px}#now{background:#fff;border:1px solid #cfd8dc;padding:8px;margin-bottom:8px}\
#now code,#timeline code{font-size:12px}.rule{color:#1565c0;font-weight:600}#problem{background:#ffebee;border:2px solid #c62828;padding:8px;margin-bottom:8px}\
#state{border-collapse:collapse;width:100%;background:#fff;font-size:12px}#state td{border-bottom:1px solid #eee;padding:2px 6px;vertical-align:top}#state td:first-child{color:#546e7a;white-space:nowrap}\
#timeline{margin:0 16px 24px;padding-left:3.2em;columns:2;font-size:12px}#timeline li{cursor:pointer;padding:1px 4px;break-inside:avoid}\
#timeline li:hover{background:#e3f2fd}#timeline li.current{background:#bbdefb;font-weight:600}#timeline li.illegal{background:#ffcdd2;color:#b71c1c}\
#timeline li.unplayed{color:#9e9e9e}#timeline li.end{color:#607d8b}.cp{color:#2e7d32;font-weight:700}.cp.bad{color:#c62828}\
.place{fill:#eceff1;stroke:#90a4ae;stroke-width:2}.link{stroke:#cfd8dc;stroke-width:3}.pid{font-size:18px;fill:#607d8b}\
.token rect{stroke:#263238;stroke-width:1.5}.token text{font-size:17px;fill:#fff;font-weight:600}";

const SCRIPT: &str = r#"(function(){
var D=JSON.parse(document.getElementById('data').textContent);
var S=D.steps,cur=0,NS='http://www.w3.org/2000/svg';
var colours=['#1e88e5','#e53935','#43a047','#8e24aa','#fb8c00','#00897b'];
function el(tag,attrs,text,ns){var e=ns?document.createElementNS(NS,tag):document.createElement(tag);
 for(var k in attrs){e.setAttribute(k,attrs[k]);}if(text!==undefined){e.textContent=text;}return e;}
function flat(v,path,rows){if(v&&typeof v==='object'&&!Array.isArray(v)){var ks=Object.keys(v);
 if(ks.length===0){rows.push([path,'—']);}ks.forEach(function(k){flat(v[k],path?path+' · '+k:k,rows);});}
 else{rows.push([path,Array.isArray(v)?v.map(function(x){return typeof x==='object'?JSON.stringify(x):String(x);}).join(', '):String(v)]);}}
function label(s){var t=s.turn?('turn '+s.turn+' · '+s.player):'';if(s.kind==='setup')return 'setup';
 if(s.action)return t+' · #'+s.action;return t+(s.text==='result'?'result':' · end of turn');}
document.getElementById('summary').textContent=D.file+' — '+D.players.join(', ')+' — '+D.verdict+
 (D.ending?(' — '+(D.ending.winners.length?('won by '+D.ending.winners.join(' and ')):'a draw')+' ('+D.ending.reason+')'):'');
var tl=document.getElementById('timeline');
S.forEach(function(s,i){var li=el('li',{'data-step':i,'class':s.kind});li.appendChild(el('span',{},label(s)+' '));
 if(s.kind!=='setup'&&s.kind!=='end')li.appendChild(el('code',{},s.text));
 if(s.rule)li.appendChild(el('span',{'class':'rule'},' '+s.rule));
 if(s.checkpoint)li.appendChild(el('span',{'class':'cp'+(s.checkpoint.ok?'':' bad'),title:'checkpoint: '+s.checkpoint.expect},s.checkpoint.ok?' ✓ checkpoint':' ✗ checkpoint'));
 li.addEventListener('click',function(){show(i);});tl.appendChild(li);});
var slider=document.getElementById('slider');slider.max=S.length-1;
slider.addEventListener('input',function(){show(+slider.value);});
document.getElementById('prev').onclick=function(){show(cur-1);};
document.getElementById('next').onclick=function(){show(cur+1);};
document.getElementById('first').onclick=function(){show(0);};
document.getElementById('last').onclick=function(){show(S.length-1);};
document.addEventListener('keydown',function(e){if(e.key==='ArrowLeft')show(cur-1);if(e.key==='ArrowRight')show(cur+1);
 if(e.key==='Home')show(0);if(e.key==='End')show(S.length-1);});
function drawBoard(s){var svg=document.getElementById('board');while(svg.firstChild)svg.removeChild(svg.firstChild);
 var B=D.board;if(!B){svg.setAttribute('hidden','');document.getElementById('noboard').hidden=false;return;}
 svg.setAttribute('viewBox','0 0 '+B.width+' '+B.height);svg.setAttribute('data-step',cur);
 B.edges.forEach(function(e){var a=B.nodes[e[0]],b=B.nodes[e[1]];svg.appendChild(el('line',{'class':'link',x1:a.x,y1:a.y,x2:b.x,y2:b.y},undefined,true));});
 B.nodes.forEach(function(n){svg.appendChild(el('circle',{'class':'place',cx:n.x,cy:n.y,r:26},undefined,true));
  svg.appendChild(el('text',{'class':'pid',x:n.x,y:n.y+44,'text-anchor':'middle'},n.id,true));});
 var at={};s.tokens.forEach(function(t){(at[t.node]=at[t.node]||[]).push(t);});
 Object.keys(at).forEach(function(id){var n=B.nodes.filter(function(x){return x.id===id;})[0];if(!n)return;
  at[id].forEach(function(t,k){var g=el('g',{'class':'token','data-node':t.node,'data-label':t.label},undefined,true);
   var y=n.y-14+k*26-(at[id].length-1)*13,w=Math.max(40,t.label.length*10.5+14);
   g.appendChild(el('rect',{x:n.x-w/2,y:y-11,width:w,height:22,rx:6,fill:t.owner===null||t.owner===undefined?'#546e7a':colours[t.owner%colours.length]},undefined,true));
   g.appendChild(el('text',{x:n.x,y:y+6,'text-anchor':'middle'},t.label,true));
   g.appendChild(el('title',{},t.label+' on '+t.node+(t.owner!=null?' ('+D.players[t.owner]+')':''),true));svg.appendChild(g);});});}
function show(i){cur=Math.max(0,Math.min(S.length-1,i));var s=S[cur];slider.value=cur;
 document.getElementById('pos').textContent='step '+cur+' of '+(S.length-1);
 var now=document.getElementById('now');now.textContent='';now.appendChild(el('div',{},label(s)));
 if(s.kind!=='setup')now.appendChild(el('code',{},s.text));
 if(s.rule)now.appendChild(el('div',{'class':'rule'},s.rule+(s.rule_title?' — '+s.rule_title:'')));
 if(s.kind==='unplayed')now.appendChild(el('div',{},'Not replayed: the log stopped being legal earlier.'));
 if(s.checkpoint)now.appendChild(el('div',{'class':'cp'+(s.checkpoint.ok?'':' bad')},(s.checkpoint.ok?'✓':'✗')+' checkpoint: '+s.checkpoint.expect));
 var p=document.getElementById('problem');p.textContent='';
 if(D.failure&&D.failure.step===cur){p.hidden=false;p.appendChild(el('strong',{},(D.failure.rule?D.failure.rule+(D.failure.title?' ('+D.failure.title+')':'')+': ':'')+D.failure.message));
  if(D.failure.expected)p.appendChild(el('div',{},'expected: '+D.failure.expected));if(D.failure.found)p.appendChild(el('div',{},'found: '+D.failure.found));
  if(D.failure.alternatives.length)p.appendChild(el('div',{},'legal here: '+D.failure.alternatives.join('; ')));}else{p.hidden=true;}
 var t=document.getElementById('state');t.textContent='';var rows=[];flat(s.state,'',rows);
 rows.forEach(function(r){var tr=el('tr');tr.appendChild(el('td',{},r[0]));tr.appendChild(el('td',{},r[1]));t.appendChild(tr);});
 drawBoard(s);Array.prototype.forEach.call(tl.children,function(li,k){li.classList.toggle('current',k===cur);});
 var li=tl.children[cur];if(li&&li.scrollIntoView&&document.readyState==='complete')li.scrollIntoView({block:'nearest'});
 try{history.replaceState(null,'','#step='+cur);}catch(e){}document.body.setAttribute('data-step',cur);}
var m=/step=(\d+)/.exec(location.hash);
show(m?+m[1]:(D.failure&&D.failure.step!=null?D.failure.step:0));
document.body.setAttribute('data-ready','true');})();"#;
