export default "Your privacy choices|{c} would like to use your data as described below. You can change your mind at any time.|" +
  "Privacy policy|Terms|Cookie policy|Accept all|Reject all|Save choices|Close|Details|Data used|Controllers|Processors|" +
  "Recipients|Your consent|Contract|Legitimate interest|Legal obligation|Object|Objection sent|New|" +
  "Your browser sends Global Privacy Control, so consent starts switched off.|" +
  "The privacy service could not be reached, so nothing was saved.|Try again|Your choices were saved.|This site|" +
  "{c} would like to use your data, with your consent, for the purposes you can review under Customize. You can change your mind at any time.|" +
  "{c} uses your data as described under Your privacy choices, which may include sharing it with partners. You can opt out at any time.|" +
  "{c} uses your data as described under Your privacy choices, where you can also object.|Customize|" +
  "Your browser sends Global Privacy Control, so you were opted out of the sale and sharing of your data.|OK|" +
  "Your choice is kept on this device and will be sent when the privacy service answers.|Download receipt";
