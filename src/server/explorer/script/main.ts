// The route explorer's browser script (page-html.ts loads it as a module, after the page is parsed). Built into one
// file by build-explorer-script.ts; it imports the API's types only, so the compiler checks every field it reads.
import { setUpEvalView } from "./eval-view.js";
import { setUpFeedbackControl } from "./feedback-control.js";
import { setUpKeyField } from "./key-field.js";
import { setUpRouteView } from "./route-view.js";
import { showStatus } from "./status-line.js";
import { setUpTabs } from "./tabs.js";

setUpKeyField(showStatus);
setUpTabs();
setUpRouteView();
setUpFeedbackControl();
setUpEvalView();
showStatus();
