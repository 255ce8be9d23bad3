// Render JSON Resume documents to HTML with one npm theme package (the layout zoo, build time only).
// Usage: node render.js <node_modules dir> <theme package> <jobs.json>
// jobs.json is a list of {"resume": "<path to resume.json>", "html": "<path to write>"}.
// Prints one JSON line per job: {"html": path, "ok": true} or {"html": path, "ok": false, "error": "..."}.
'use strict';
const fs = require('fs');
const path = require('path');

// require() first; an ES-module theme (or one whose CommonJS build needs ES-only packages) by import().
async function load(dir) {
  try {
    return require(dir);
  } catch (err) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const dot = pkg.exports && (pkg.exports['.'] || pkg.exports);
    let entry = pkg.module || pkg.main || 'index.js';
    if (dot && dot.import) entry = typeof dot.import === 'string' ? dot.import : dot.import.default;
    const { pathToFileURL } = require('url');
    return await import(pathToFileURL(path.join(dir, entry)).href);
  }
}

async function main() {
  const [modules, theme, jobsPath] = process.argv.slice(2);
  const jobs = JSON.parse(fs.readFileSync(jobsPath, 'utf8'));
  let mod;
  try {
    mod = await load(path.join(path.resolve(modules), theme));
  } catch (err) {
    for (const job of jobs) {
      process.stdout.write(JSON.stringify({ html: job.html, ok: false, error: 'load: ' + String(err && err.message || err) }) + '\n');
    }
    return;
  }
  const render = mod.render || (mod.default && mod.default.render);
  for (const job of jobs) {
    try {
      if (typeof render !== 'function') throw new Error('the theme exports no render(resume)');
      const resume = JSON.parse(fs.readFileSync(job.resume, 'utf8'));
      const html = await render(resume);
      if (typeof html !== 'string' || html.length === 0) throw new Error('render gave no HTML');
      fs.writeFileSync(job.html, html, 'utf8');
      process.stdout.write(JSON.stringify({ html: job.html, ok: true }) + '\n');
    } catch (err) {
      process.stdout.write(JSON.stringify({ html: job.html, ok: false, error: String(err && err.message || err).slice(0, 300) }) + '\n');
    }
  }
}

main().catch((err) => { process.stderr.write(String(err) + '\n'); process.exit(1); });
