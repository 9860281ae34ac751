// The pages behind sign-in, one chunk loaded once the operator is signed in (app.ts): the sign-in page needs none
// of them, so a visitor who is not signed in downloads and parses only the shell and the form.
import "./pages/account";
import "./pages/analytics";
import "./pages/blocking/page";
import "./pages/clients";
import "./pages/configuration/page";
import "./pages/identities";
import "./pages/organization/audit";
import "./pages/organization/members";
import "./pages/overview";
import "./pages/projects";
import "./pages/requests";
import "./pages/scanner/page";
import "./pages/settings";
import "./pages/wording";
import "./pages/sms";
import "./pages/tcf/page";
import "./pages/webhooks/page";
