package cmd

import (
	"bytes"
	"encoding/json"

	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/lobby/store"
)

// chatLine carries one line said in the room, on play's output: a line
// kind of its own, never inside an update.
type chatLine struct {
	Chat store.ChatLine `json:"chat"`
}

// chatSender writes play's updates with the room's chat: after each
// update, the lines in it not sent yet, oldest first. An update that
// differs from the last one sent only by its new chat is not sent again.
type chatSender struct {
	out  *json.Encoder
	sent map[string]bool // IDs of lines sent, among the room's newest
	last []byte          // the last update sent, as sent
}

func newChatSender(out *json.Encoder) *chatSender {
	return &chatSender{out: out, sent: map[string]bool{}}
}

// send writes u, unless it repeats the last update, and its new chat.
func (c *chatSender) send(u lobby.Update) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // as play's output: no HTML escapes
	enc.SetEscapeHTML(false)
	if err := enc.Encode(u); err != nil { // Update.Chat is not in it
		return err
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	var fresh []store.ChatLine
	for _, l := range u.Chat {
		if !c.sent[l.ID] {
			fresh = append(fresh, l)
		}
	}
	if string(data) != string(c.last) || len(fresh) == 0 {
		if err := c.out.Encode(json.RawMessage(data)); err != nil {
			return err
		}
		c.last = data
	}
	if len(fresh) == 0 {
		return nil
	}
	// Remember only the lines the room still shows: older ones never
	// come back.
	sent := make(map[string]bool, len(u.Chat))
	for _, l := range u.Chat {
		sent[l.ID] = true
	}
	c.sent = sent
	for _, l := range fresh {
		if err := c.out.Encode(chatLine{l}); err != nil {
			return err
		}
	}
	return nil
}

// chatText reads a line of play's input as chat: {"chat":"text"}. A line
// with a "chat" key whose value is no text is chat all the same, refused
// with err: judged as a move, it would be answered in the rules' words.
func chatText(line []byte) (text string, ok bool, err error) {
	var in struct {
		Chat json.RawMessage `json:"chat"`
	}
	if json.Unmarshal(line, &in) != nil || in.Chat == nil {
		return "", false, nil
	}
	if json.Unmarshal(in.Chat, &text) != nil || in.Chat[0] != '"' {
		return "", false, errChatNotText
	}
	return text, true, nil
}
