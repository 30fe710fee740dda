#include "report/HtmlPage.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "report/DataUri.hpp"
#include "report/FigureTable.hpp"

namespace fs = std::filesystem;

namespace pullsched::rig {

namespace {

constexpr std::uintmax_t kLargestManifest = 4u << 20;
constexpr std::size_t kLargestRecordList = 500;  // longer lists stay in the JSON

// Readable on screen and printed; no external fonts or images. Fits a 1280 px window:
// long report lines and values wrap inside their box, wide tables scroll inside theirs.
constexpr const char* kStyle = R"(
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 1240px; padding: 0 1em;
       color: #222; background: #fff; }
h1 { font-size: 1.5em; margin-bottom: .2em; }
h2 { font-size: 1.15em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
.sub { color: #555; margin-top: 0; }
.verdict { padding: .7em 1em; border-radius: 4px; border-left: 6px solid; }
.measured { background: #eef7ee; border-color: #2e7d32; }
.failed { background: #fdecea; border-color: #c62828; }
.partial, .caveat { background: #fff6e0; border-color: #ef8f00; }
.other { background: #f2f2f2; border-color: #777; }
.status-failed { color: #c62828; font-weight: bold; }
td.run-verdict { border-left: 6px solid; }
ul.warnings li { color: #8a5a00; }
ul.failures li { color: #c62828; font-weight: bold; }
pre { background: #f7f7f7; padding: .7em; overflow-x: auto; font-size: .9em;
      white-space: pre-wrap; overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: .92em; max-width: 100%; }
table.kv { width: 100%; }
table.kv > tbody > tr > th { width: 1%; }
table.kv > tbody > tr > td { width: 99%; }
.wide { overflow-x: auto; contain: inline-size; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top;
         overflow-wrap: anywhere; }
th, td.num { overflow-wrap: normal; white-space: nowrap; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0 2em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { color: #555; font-size: .9em; }
.missing { background: #fff6e0; padding: .6em 1em; border: 1px dashed #ef8f00; }
code { font-size: .92em; }
)";

/// Percent-encodes a file name for a relative href (anything but unreserved characters).
std::string href(const std::string& name) {
    std::string r;
    for (unsigned char c : name) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
            r += static_cast<char>(c);
        else
            r += fmt::format("%{:02X}", c);
    }
    return r;
}

std::string link(const std::string& name) {
    return fmt::format("<a href=\"{}\">{}</a>", href(name), HtmlPage::escape(name));
}

/// A JSON value as page text: numbers with 6 significant digits, null as "n/a".
std::string valueText(const nlohmann::json& v) {
    if (v.is_null()) return "n/a";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return fmt::format("{:.6g}", v.get<double>());
    std::string s = v.dump();
    if (s.size() > 300) s = s.substr(0, 297) + "...";
    return s;
}

bool numeric(const nlohmann::json& v) {
    return v.is_number() || v.is_null();
}

/// Nested objects flattened to "outer.inner" rows.
void flatten(const nlohmann::json& v, const std::string& prefix,
             std::vector<std::pair<std::string, nlohmann::json>>& rows) {
    if (v.is_object() && !v.empty()) {
        for (const auto& [k, x] : v.items())
            flatten(x, prefix.empty() ? k : prefix + "." + k, rows);
        return;
    }
    rows.emplace_back(prefix, v);
}

/// A list of records (probes, compared metrics) as a table of its own: one row per record,
/// a column per key; nested values shown compactly.
bool isRecordList(const nlohmann::json& v) {
    if (!v.is_array() || v.empty() || v.size() > kLargestRecordList) return false;
    for (const auto& x : v)
        if (!x.is_object()) return false;
    return true;
}

std::string recordTable(const nlohmann::json& records) {
    std::vector<std::string> keys;
    for (const auto& r : records)
        for (const auto& [k, x] : r.items())
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    std::string s = "<div class=\"wide\"><table>\n<tr>";
    for (const std::string& k : keys)
        s += "<th>" + HtmlPage::escape(k) + "</th>";
    s += "</tr>\n";
    for (const auto& r : records) {
        s += "<tr>";
        for (const std::string& k : keys) {
            const nlohmann::json v = r.contains(k) ? r.at(k) : nlohmann::json(nullptr);
            s += fmt::format("<td{}>{}</td>", numeric(v) ? " class=\"num\"" : "",
                             HtmlPage::escape(valueText(v)));
        }
        s += "</tr>\n";
    }
    return s + "</table></div>\n";
}

std::string keyValueTable(const nlohmann::json& object) {
    std::vector<std::pair<std::string, nlohmann::json>> rows;
    flatten(object, "", rows);
    // a table with nested tables spans the page, so that those scroll inside it
    const bool nested = std::any_of(rows.begin(), rows.end(),
                                    [](const auto& row) { return isRecordList(row.second); });
    std::string s = nested ? "<table class=\"kv\">\n" : "<table>\n";
    for (const auto& [k, v] : rows)
        if (isRecordList(v))
            s += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", HtmlPage::escape(k),
                             recordTable(v));
        else
            s += fmt::format("<tr><th>{}</th><td{}>{}</td></tr>\n", HtmlPage::escape(k),
                             numeric(v) ? " class=\"num\"" : "", HtmlPage::escape(valueText(v)));
    return s + "</table>\n";
}

std::string fileKind(const std::string& name, const std::string& base) {
    const std::string ext = fs::path(name).extension().string();
    if (name == base + ".json") return "result envelope and manifest (JSON)";
    if (name == base + ".html") return "this page";
    if (ext == ".csv") return "table (CSV)";
    if (ext == ".gp") return "Gnuplot script (data inside)";
    if (ext == ".png") return "picture";
    if (ext == ".svg") return "picture (SVG)";
    if (ext == ".dot") return "graph (Graphviz)";
    if (ext == ".hgrm") return "latency histogram (HdrHistogram text)";
    if (name.find("trace") != std::string::npos && ext == ".json")
        return "trace (ui.perfetto.dev, chrome://tracing)";
    if (ext == ".json") return "JSON";
    if (ext == ".txt") return "text";
    return "file";
}

std::string sizeText(std::optional<std::uintmax_t> bytes) {
    if (!bytes) return "";
    if (*bytes < 10 * 1024) return fmt::format("{} B", *bytes);
    if (*bytes < 10 * 1024 * 1024) return fmt::format("{} KiB", *bytes / 1024);
    return fmt::format("{} MiB", *bytes / (1024 * 1024));
}

/// The class of the verdict box, from the exit status and what the verdict means
/// (`verdict_class`: an exit-0 result with misses or caveats is amber, not green).
std::string statusClass(int exitStatus, bool partial, const std::string& verdictClass) {
    // exit 1 is a correctness failure, exit 4 a failed --check: both fail the run
    if (exitStatus == 1 || exitStatus == 4) return "failed";
    if (partial || exitStatus == 130 || exitStatus == 143) return "partial";
    if (exitStatus == 0 && verdictClass == "caveat") return "caveat";
    if (exitStatus == 0) return "measured";
    return "other";
}

std::string statusText(int exitStatus, bool partial) {
    switch (exitStatus) {
        case 0:
            return partial ? "exit 0, partial" : "exit 0: measured";
        case 1:
            return "exit 1: correctness failure";
        case 3:
            return "exit 3: files not written";
        case 4:
            return "exit 4: checks failed";
        case 130:
        case 143:
            return fmt::format("exit {}: interrupted, partial", exitStatus);
        default:
            return fmt::format("exit {}", exitStatus);
    }
}

/// A relative link to `path` (folder/file): each part percent-encoded, the '/' kept.
std::string pathHref(const fs::path& path) {
    std::string r;
    for (const fs::path& part : path) {
        if (!r.empty()) r += '/';
        r += href(part.string());
    }
    return r;
}

std::string folderLink(const std::string& folder) {
    return fmt::format("<a href=\"{}/\">{}/</a>", href(folder), HtmlPage::escape(folder));
}

/// One run of the index: its date, its page, folder, mode, status and coloured verdict.
std::string runRow(const FolderEntry& e) {
    const fs::path page = fs::path(e.folder) / (e.hasPage ? e.name + ".html" : e.name + ".json");
    const std::string status = statusClass(e.exitStatus, e.partial, e.verdictClass);
    return fmt::format(
        "<tr><td>{}</td><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td>"
        "<td class=\"status-{}\">{}</td><td class=\"run-verdict {}\">{}</td></tr>\n",
        HtmlPage::escape(e.date), pathHref(page),
        HtmlPage::escape(e.name.empty() ? "(unnamed)" : e.name),
        e.folder.empty() ? "" : folderLink(e.folder), HtmlPage::escape(e.mode), status,
        HtmlPage::escape(statusText(e.exitStatus, e.partial)), status,
        HtmlPage::escape(e.verdict.empty() ? "(none given)" : e.verdict));
}

}  // namespace

std::string HtmlPage::escape(std::string_view text) {
    std::string r;
    r.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                r += "&amp;";
                break;
            case '<':
                r += "&lt;";
                break;
            case '>':
                r += "&gt;";
                break;
            case '"':
                r += "&quot;";
                break;
            case '\'':
                r += "&#39;";
                break;
            default:
                r += c;
        }
    }
    return r;
}

namespace {

/// The envelope's field `key`, or an empty object when it has none.
const nlohmann::json& fieldOf(const nlohmann::json& envelope, const char* key) {
    static const nlohmann::json kEmpty = nlohmann::json::object();
    return envelope.contains(key) ? envelope.at(key) : kEmpty;
}

std::string stringField(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : "";
}

/// The title, the status line, the verdict box and the failures and warnings.
void pageHead(std::ostringstream& p, const std::string& name, const nlohmann::json& envelope) {
    const nlohmann::json& exit = fieldOf(envelope, "exit_status");
    const nlohmann::json& partialField = fieldOf(envelope, "partial");
    const std::string mode = stringField(envelope, "mode");
    const int exitStatus = exit.is_number() ? exit.get<int>() : 0;
    const bool partial = partialField.is_boolean() && partialField.get<bool>();
    const std::string date = stringField(fieldOf(envelope, "environment"), "date");
    p << fmt::format("<h1>stressrig --mode={}: {}</h1>\n", HtmlPage::escape(mode),
                     HtmlPage::escape(name));
    const std::string status =
        statusClass(exitStatus, partial, stringField(envelope, "verdict_class"));
    // a failed run says so in the failure colour, not in the grey of the date
    p << fmt::format("<p class=\"sub\">{}<span class=\"status-{}\">{}</span></p>\n",
                     HtmlPage::escape(date.empty() ? "" : date + ", "), status,
                     HtmlPage::escape(statusText(exitStatus, partial)));
    const std::string verdict = stringField(envelope, "verdict");
    p << fmt::format("<div class=\"verdict {}\"><strong>Verdict:</strong> {}</div>\n", status,
                     HtmlPage::escape(verdict.empty() ? "(none given)" : verdict));
    auto list = [&](const char* key, const char* cls, const char* title) {
        const nlohmann::json& items = fieldOf(envelope, key);
        if (!items.is_array() || items.empty()) return;
        p << fmt::format("<h2>{}</h2>\n<ul class=\"{}\">\n", title, cls);
        for (const auto& i : items)
            p << "<li>" << HtmlPage::escape(valueText(i)) << "</li>\n";
        p << "</ul>\n";
    };
    list("failures", "failures", "Failures");
    list("warnings", "warnings", "Warnings");
}

/// Stands for the pictures while the rest of the page is composed (escaped text never
/// contains '<', so it cannot occur elsewhere).
constexpr std::string_view kPicturesMarker = "<!--pictures-->";

/// A figure: `body`, then a caption linking the picture and its source.
std::string figure(const PagePicture& pic, const std::string& body) {
    return "<figure>\n" + body + "<figcaption>" +
           (pic.picture.empty() ? "" : link(pic.picture) + " from ") + link(pic.source) +
           "</figcaption>\n</figure>\n";
}

/// The picture as a figure without the picture: why it is not shown, where it is.
std::string figureWithoutPicture(const PagePicture& pic, std::size_t budget) {
    if (pic.picture.empty())
        return figure(pic, fmt::format("<p class=\"missing\">This picture was not rendered{}. "
                                       "Its source is linked below.</p>\n",
                                       pic.note.empty() ? "" : ": " + HtmlPage::escape(pic.note)));
    if (pic.bytes.empty() || pictureMediaType(pic.picture).empty())
        return figure(pic, "<p class=\"missing\">This picture is not inlined in the page: open " +
                               link(pic.picture) + ".</p>\n");
    return figure(pic, fmt::format("<p class=\"missing\">This picture ({}) is left out: it "
                                   "would take the page over its size budget of {} KiB. "
                                   "Open {}.</p>\n",
                                   sizeText(pic.bytes.size()), budget / 1024, link(pic.picture)));
}

/// `page` with its pictures in place of the marker: each inlined as a data: URI while the
/// page stays within `budget` bytes, else its note (every note is reserved up front).
std::string withPictures(std::string page, const std::vector<PagePicture>& pictures,
                         std::size_t budget) {
    std::string section;
    if (!pictures.empty()) {
        section = "<h2>Pictures</h2>\n";
        std::vector<std::string> figures;
        std::size_t needed = page.size() - kPicturesMarker.size() + section.size();
        for (const PagePicture& pic : pictures) {
            figures.push_back(figureWithoutPicture(pic, budget));
            needed += figures.back().size();
        }
        std::size_t room = budget > needed ? budget - needed : 0;
        for (std::size_t i = 0; i < pictures.size(); ++i) {
            const PagePicture& pic = pictures[i];
            if (pic.bytes.empty() || pictureMediaType(pic.picture).empty()) continue;
            std::string inlined =
                figure(pic, fmt::format("<img src=\"{}\" alt=\"{}\">\n",
                                        dataUri(pictureMediaType(pic.picture), pic.bytes),
                                        HtmlPage::escape(pic.picture)));
            // an inlined figure is larger than its note (the picture outweighs the note)
            const std::size_t extra =
                inlined.size() > figures[i].size() ? inlined.size() - figures[i].size() : 0;
            if (extra > room) continue;
            room -= extra;
            figures[i] = std::move(inlined);
        }
        for (const std::string& f : figures)
            section += f;
    }
    page.replace(page.find(kPicturesMarker), kPicturesMarker.size(), section);
    return page;
}

void pageFiles(std::ostringstream& p, const std::vector<PageFile>& files, const std::string& name) {
    if (files.empty()) return;
    p << "<h2>Files</h2>\n<table>\n<tr><th>file</th><th>what</th><th>size</th></tr>\n";
    for (const PageFile& f : files)
        p << fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>\n", link(f.name),
                         HtmlPage::escape(fileKind(f.name, name)), sizeText(f.bytes));
    p << "</table>\n";
}

}  // namespace

std::string HtmlPage::resultPage(const std::string& name, const nlohmann::json& envelope,
                                 const std::vector<std::string>& text,
                                 const std::vector<PagePicture>& pictures,
                                 const std::vector<PageFile>& files, std::size_t budget) {
    auto field = [&](const char* key) -> const nlohmann::json& { return fieldOf(envelope, key); };
    const std::string mode = stringField(envelope, "mode");
    std::ostringstream p;
    p << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << fmt::format("<title>stressrig {}: {}</title>\n", escape(mode), escape(name)) << "<style>"
      << kStyle << "</style>\n</head>\n<body>\n";
    pageHead(p, name, envelope);

    if (!text.empty()) {
        p << "<h2>Report</h2>\n<pre>";
        for (const std::string& line : text)
            p << escape(line) << '\n';
        p << "</pre>\n";
    }
    p << kPicturesMarker;  // filled in last: they get what the budget leaves

    const nlohmann::json& result = field("result");
    p << FigureTable::checks(field("checks"));
    if (result.is_object() && !result.empty())
        p << "<h2>Result figures</h2>\n<p class=\"sub\">The headline figures of the envelope's "
             "<code>result</code> with their units; n/a = not measured.</p>\n"
          << FigureTable::figures(result)
          << "<details><summary>Every field of <code>result</code></summary>\n"
          << keyValueTable(result) << "</details>\n";
    pageFiles(p, files, name);

    if (field("configuration").is_object())
        p << "<h2>Configuration</h2>\n" << keyValueTable(field("configuration"));
    const nlohmann::json& env = field("environment");
    if (env.is_object()) p << "<h2>Environment</h2>\n" << keyValueTable(env);
    if (!field("calibration").is_null() && !field("calibration").empty())
        p << "<h2>Calibration of the job body</h2>\n" << keyValueTable(field("calibration"));
    p << "</body>\n</html>\n";
    return withPictures(p.str(), pictures, budget);
}

std::string HtmlPage::runsPage(const std::vector<FolderEntry>& runs, const std::string& latest) {
    std::ostringstream p;
    p << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>stressrig runs</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n"
      << "<h1>stressrig runs in this folder</h1>\n";
    p << fmt::format(
        "<p class=\"sub\">{} run{}, newest first. Each run has a folder of its own, "
        "<code>&lt;name&gt;-&lt;UTC time&gt;/</code>, with its page "
        "<code>index.html</code>, its manifest <code>&lt;name&gt;.json</code> and "
        "every other file of its result.{}</p>\n",
        runs.size(), runs.size() == 1 ? "" : "s",
        latest.empty() ? ""
                       : fmt::format(" The newest run, {}, is also <code>latest/</code>.",
                                     folderLink(latest)));
    if (runs.empty()) {
        p << "<p>No results yet.</p>\n</body>\n</html>\n";
        return p.str();
    }
    p << "<div class=\"wide\"><table>\n<tr><th>date (UTC)</th><th>run</th><th>folder</th>"
         "<th>mode</th><th>status</th><th>verdict</th></tr>\n";
    for (const FolderEntry& e : runs)
        p << runRow(e);
    p << "</table></div>\n</body>\n</html>\n";
    return p.str();
}

std::vector<FolderEntry> HtmlPage::folderResults(const fs::path& directory) {
    std::vector<FolderEntry> entries;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(directory, ec)) {
        if (!e.is_regular_file() || e.path().extension() != ".json") continue;
        // Manifests are small; traces beside them can be large and are not parsed.
        if (std::error_code big; e.file_size(big) > kLargestManifest || big) continue;
        std::ifstream in(e.path());
        const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        // Traces and other JSON files of a result are not manifests.
        if (j.is_discarded() || !j.is_object() || !j.contains("mode") || !j.contains("files") ||
            !j.contains("verdict") || !j["mode"].is_string())
            continue;
        FolderEntry f;
        f.name = e.path().stem().string();
        f.mode = j["mode"].get<std::string>();
        if (j.contains("environment") && j["environment"].is_object() &&
            j["environment"].contains("date") && j["environment"]["date"].is_string())
            f.date = j["environment"]["date"].get<std::string>();
        if (j["verdict"].is_string()) f.verdict = j["verdict"].get<std::string>();
        if (j.contains("verdict_class") && j["verdict_class"].is_string())
            f.verdictClass = j["verdict_class"].get<std::string>();
        if (j.contains("exit_status") && j["exit_status"].is_number())
            f.exitStatus = j["exit_status"].get<int>();
        f.partial = j.contains("partial") && j["partial"].is_boolean() && j["partial"].get<bool>();
        f.hasPage = fs::exists(directory / (f.name + ".html"), ec);
        entries.push_back(std::move(f));
    }
    std::sort(entries.begin(), entries.end(), [](const FolderEntry& a, const FolderEntry& b) {
        return a.date != b.date ? a.date > b.date : a.name < b.name;
    });
    return entries;
}

}  // namespace pullsched::rig
