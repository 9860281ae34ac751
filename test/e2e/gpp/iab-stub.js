// The stub of IAB Tech Lab's GPP CMP API 1.1 ("Examples: Example stub code",
// https://github.com/InteractiveAdvertisingBureau/Global-Privacy-Platform/blob/main/Core/CMP%20API%20Specification.md#stubcode),
// as its example lays its state out: the calls it cannot answer queue on `__gpp.queue` (and `__gpp()` returns them),
// listeners go on `__gpp.events` with ids from `__gpp.lastId`, answers are returned (the 1.0 way) rather than passed
// to the callback, and every other command, "events" included, is queued. Written for the tests from the
// specification's description; a CMP that takes this stub over must find its listeners where this keeps them.
(function () {
  var stubPing = function () {
    return { gppVersion: "1.1", cmpStatus: "stub", cmpDisplayStatus: "hidden", supportedAPIs: ["usnat"], cmpId: 0,
      sectionList: [], applicableSections: [-1], gppString: "" };
  };
  var stub = function () {
    var args = arguments;
    stub.queue = stub.queue || [];
    if (!args.length) return stub.queue;
    var command = args[0], callback = args.length > 1 ? args[1] : null, parameter = args.length > 2 ? args[2] : null;
    if (command === "ping") return stubPing();
    if (command === "addEventListener") {
      stub.events = stub.events || [];
      if (!("lastId" in stub)) stub.lastId = 0;
      var id = ++stub.lastId;
      stub.events.push({ id: id, callback: callback, parameter: parameter });
      return { eventName: "listenerRegistered", listenerId: id, data: true, pingData: stubPing() };
    }
    if (command === "removeEventListener") {
      var removed = false;
      stub.events = stub.events || [];
      for (var i = 0; i < stub.events.length; i++) if (stub.events[i].id == parameter) { stub.events.splice(i, 1); removed = true; break; }
      return { eventName: "listenerRemoved", listenerId: parameter, data: removed, pingData: stubPing() };
    }
    if (command === "hasSection" || command === "getSection" || command === "getField") return null;
    stub.queue.push([].slice.apply(args));
  };
  if (typeof window.__gpp === "function") return;
  window.__gpp = stub;
  window.addEventListener("message", function (event) {
    var text = typeof event.data === "string", call;
    try { call = (text ? JSON.parse(event.data) : event.data).__gppCall; } catch (e) { return; }
    if (call) window.__gpp(call.command, function (returnValue, success) {
      var reply = { __gppReturn: { returnValue: returnValue, success: success, callId: call.callId } };
      event.source.postMessage(text ? JSON.stringify(reply) : reply, "*");
    }, "parameter" in call ? call.parameter : null, "version" in call ? call.version : "1.1");
  });
  (function addFrame() {
    if (window.frames.__gppLocator) return;
    if (!document.body) return setTimeout(addFrame, 10);
    var frame = document.createElement("iframe");
    frame.style.cssText = "display:none";
    frame.name = "__gppLocator";
    document.body.appendChild(frame);
  })();
})();
